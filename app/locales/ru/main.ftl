# Интерфейс Gapwise по-русски. Те же сообщения, что в en/main.ftl.

## Page frame
nav-main = Главное меню
nav-play = Играть
nav-rate = Оценивать
nav-define = Определения
nav-guess = Следующее слово
nav-propose = Предложить
nav-leaderboard = Рейтинг
nav-account = Профиль
nav-my-data = Мои данные
footer-staff = Вход для сотрудников
interface-language = Язык интерфейса
items-language = Язык предложений
loading = Загрузка…
start-home = Начать с главной страницы
blank = пропуск
none = Нет.
none-yet = Пока нет.
yes = да
no = нет

## Home page and consent
landing-erased = Всё, что мы хранили о вас, удалено.
landing-title = Различите ли вы слова по их окружению?
landing-what = Gapwise — исследовательская игра. Вы видите предложения, в которых одно слово заменено пропуском, и два слова-кандидата. Выберите то, которое там стояло. Одни пары простые; другие так похожи, что ошибаются и люди, и языковые модели.
landing-why = Исследователи сравнивают ваши ответы с ответами языковых моделей, чтобы понять, какая часть значения слова заключена в контекстах, где оно встречается.
consent-title = Прежде чем играть
consent-pseudonym = Вы играете под случайным псевдонимом. Мы не спрашиваем ни имени, ни адреса электронной почты.
consent-record = Мы записываем, какое слово вы выбрали, верно ли это, и сколько времени заняло.
consent-share = Обезличенные ответы передаются исследователям по лицензии CC BY-SA 4.0. В них никогда нет вашего IP-адреса и времени игры.
consent-voluntary = Участие добровольное; вы можете остановиться в любой момент. На странице ниже вы увидите всё, что о вас хранится, сможете это скачать и всё удалить:
consent-agree = Я прочитал(а) написанное выше и согласен(на) участвовать.

## Playing
play-k-label = Предложений в задании:
play-exhausted = { $k ->
    [one] Вы сыграли все задания с { $k } предложением. Выберите другое число предложений выше.
   *[other] Вы сыграли все задания с { $k } предложениями. Выберите другое число предложений выше.
}
play-level = Уровень { $level }
play-points = { $n ->
    [one] { $n } очко
    [few] { $n } очка
   *[many] { $n } очков
}
play-streak = Серия { $streak } (лучшая { $best })
play-from-pairs = Ваши пары: +{ $n }
play-today = Сегодня { $done } из { $goal }
play-score = { $right } верно из { $answered }
play-prompt = Какое слово стоит на месте пропуска?
play-right = Верно! Это было слово:
play-wrong = На этот раз нет. Это было слово:
play-you-chose = Ваш выбор: { $word }
play-next = Следующее задание

play-achievements = Достижения: { $n } из { $all }
ach-first-answer = Первый ответ.
ach-first-answer-how = Ответьте на задание.
ach-every-k = Все три.
ach-every-k-how = Ответьте на задания с 1, 3 и 5 предложениями.
ach-polyglot = Полиглот.
ach-polyglot-how = Сыграйте на двух языках.
ach-ten-in-a-row = Десять подряд.
ach-ten-in-a-row-how = Дайте десять верных ответов подряд.
ach-daily-goal = Цель дня.
ach-daily-goal-how = Ответьте на 20 заданий за день.
ach-level-five = Пятый уровень.
ach-level-five-how = Достигните 5-го уровня.
ach-pair-in-game = Автор пропусков.
ach-pair-in-game-how = Добейтесь, чтобы предложенную вами пару приняли в игру.
ach-unsolvable = Головоломка.
ach-unsolvable-how = Кто-то ошибается на вашей паре даже с пятью предложениями.

## Rating
rate-title = Оценка предложений
rate-intro = Насколько вы уверены, какое слово стояло на месте пропуска? Время не ограничено, правильный ответ не показывается.
rate-none = Сейчас ни одно предложение на этом языке не ждёт вашей оценки. Спасибо!
rate-count = { $n ->
    [one] { $n } оценка
    [few] { $n } оценки
   *[many] { $n } оценок
}
rate-prompt = Какое слово стояло на месте пропуска?
rate-surely = точно «{ $word }»
rate-probably = скорее «{ $word }»
rate-cannot-tell = не могу сказать

## Proposing pairs
suggest-title = Предложите пару слов
suggest-intro = Два слова, которые могут стоять на одном месте, например «два / три» или «красный / зелёный». Предложения с первым словом показываются с пропуском, и игроки угадывают, какое из двух там было. Самые ценные пары — самые трудные, те, которые люди не могут различить.
suggest-language = Язык
suggest-target = Слово в предложениях
suggest-distractor = Другое слово
suggest-thanks = Спасибо: администратор её рассмотрит.
suggest-mine = Ваши предложения
suggestion-status = { $status ->
    [pending] на рассмотрении
    [approved] одобрено
   *[rejected] отклонено
}

## Leaderboard
leaderboard-period = Период
leaderboard-week = Эта неделя
leaderboard-all-time = За всё время
leaderboard-intro = Доля верных ответов у лучших игроков (от 10 ответов) и у языковых моделей, которые играют те же задания. Модель отвечает на каждое задание, сыгранное людьми; она права, если даёт скрытому слову большую вероятность.
leaderboard-empty = В рейтинге пока никого нет: сыграйте 10 заданий, чтобы попасть сюда.
leaderboard-model = модель
leaderboard-caption = Игроки и модели по доле верных ответов
leaderboard-who = Кто
leaderboard-success = Успех
leaderboard-right-answered = Верно / всего

## Account
account-title = Ваш профиль
account-playing-as = Вы играете как:
account-resume = Продолжить на другом устройстве
account-resume-how = Задайте пароль, а затем войдите на другом устройстве с псевдонимом и этим паролем.
account-new-password = Пароль (не меньше 8 символов)
account-save-password = Сохранить пароль
account-saved = Пароль сохранён.
account-not-playing = Вы ещё не играете на этом устройстве.
account-sign-in-title = Войти по псевдониму
account-pseudonym = Псевдоним
account-password = Пароль
account-sign-in = Войти

## My data
my-data-intro = Gapwise — исследовательская игра: исследователи сравнивают, как люди и языковые модели различают слова по их контекстам. Здесь показано всё, что о вас хранится.
my-data-start = Начать игру
my-data-download = Скачать всё (JSON)
my-data-consent-version = Версия согласия
my-data-since = С
my-data-password-set = Пароль задан
my-data-browsers = Браузеры с входом
my-data-items-shown = Показано заданий
my-data-answers = Ответы
my-data-right = Верно
my-data-ratings = Оценки
my-data-proposals = Предложения пар
my-data-pairs = Ваши пары в игре
my-data-messages = Сообщения
my-data-export-id = Случайный идентификатор выгрузки
my-data-export-id-made = создан
my-data-when = Когда
my-data-item = Задание
my-data-chosen = Выбрано
my-data-time = Время (мс)
my-data-rating-line = { $at }: задание { $item }, оценка { $rating }
feedback-title = Обратная связь
feedback-label = Напишите, что вы думаете (не больше { $max } символов)
feedback-send = Отправить
feedback-thanks = Спасибо: ваше сообщение отправлено.
erase-title = Удалить всё
erase-explain = Будут удалены ваш псевдоним, все ответы, оценки, предложения и сообщения, и вы выйдете из системы. Отменить это нельзя. Ваши пары слов, которые уже есть в игре, останутся, но без вашего имени.
erase-confirm = Введите { $word }, чтобы подтвердить

## Errors
not-found-title = Страница не найдена
not-found-back = Вернуться в начало

## Слово и определение
define-title = Слово и определение
define-task = В какую сторону
define-w2d = Слово → определение
define-d2w = Определение → слово
define-cap = Варианты
define-cap-n = до { $n }
define-intro-w2d = Вот слово и определения слов того же рода. Какое из них относится к этому слову? Выбирайте, пока не найдёте. Определения даны по-английски.
define-intro-d2w = Вот определение и слова того же рода. Какое слово оно определяет? Выбирайте, пока не найдёте. Слова даны по-английски.
define-none = Вы сыграли все группы такого размера. Выберите другой размер или другое направление.
define-found = { $n ->
    [one] Верно с первой попытки!
    [few] Верно, найдено за { $n } попытки.
   *[many] Верно, найдено за { $n } попыток.
}
define-finished = { $n ->
    [one] { $n } раунд
    [few] { $n } раунда
   *[many] { $n } раундов
}
my-data-definition-picks = Выборы «слово и определение»

## Следующее слово
guess-title = Следующее слово
guess-mode = Как угадывать
guess-mode-type = Вводом
guess-mode-choose = С подсказками
guess-intro-type = Предложение появляется слово за словом. Угадайте следующее слово и введите его; затем вы увидите, какое слово там было.
guess-intro-choose = Предложение появляется слово за словом. Введите следующее слово или выберите его из подсказок языковой модели; затем вы увидите, какое слово там было.
guess-none = Вы сыграли все предложения этого языка. Выберите другой язык.
guess-label = Следующее слово:
guess-submit = Угадать
guess-suggestions = Или выберите подсказку:
guess-right = Верно: «{ $word }».
guess-wrong = Там было «{ $word }» (вы написали «{ $guess }»).
guess-sentence-done = Предложение закончено, вот следующее.
guess-progress = Слово { $n } из { $total }
guess-finished = { $n ->
    [one] { $n } предложение
    [few] { $n } предложения
   *[many] { $n } предложений
}
my-data-word-guesses = Угаданные слова
