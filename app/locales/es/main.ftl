# La interfaz de Gapwise en español. Los mismos mensajes que en en/main.ftl.

## Page frame
nav-main = Menú principal
nav-menu = Menú
nav-play = Jugar
nav-rate = Valorar
nav-define = Definiciones
nav-guess = Siguiente palabra
nav-new-words = Palabras nuevas
nav-cloze = Palabra oculta
nav-propose = Proponer
nav-leaderboard = Clasificación
nav-account = Cuenta
nav-my-data = Mis datos
footer-staff = Acceso del equipo
interface-language = Idioma de la interfaz
items-language = Idioma de las frases
loading = Cargando…
start-home = Empieza en la página de inicio
blank = hueco
none = Ninguno.
none-yet = Todavía ninguno.
yes = sí
no = no

## Home page and consent
landing-erased = Se ha borrado todo lo que guardábamos sobre ti.
landing-signed-out = Has cerrado la sesión en este dispositivo. Tu seudónimo y tus respuestas se conservan; con su contraseña puedes volver a ellos.
landing-title = ¿Sabes distinguir las palabras por su compañía?
landing-what = Gapwise es un juego de investigación. Ves frases en las que una palabra se ha sustituido por un hueco, y dos palabras candidatas. Elige la que estaba. Algunos pares son fáciles; otros se parecen tanto que se equivocan tanto las personas como los modelos de lenguaje.
landing-why = Los investigadores comparan tus respuestas con las de los modelos de lenguaje para saber cuánto del significado de una palabra está en los contextos en que aparece.
consent-title = Antes de jugar
consent-pseudonym = Juegas con un seudónimo aleatorio. No pedimos nombre ni dirección de correo.
consent-record = Registramos qué palabra elegiste, si era la correcta y cuánto tardaste.
consent-share = Las respuestas anonimizadas se comparten con investigadores bajo CC BY-SA 4.0. Nunca contienen tu dirección IP ni cuándo jugaste.
consent-voluntary = Participar es voluntario; puedes parar cuando quieras. En la página de abajo puedes ver todo lo que guardamos sobre ti, descargarlo y borrarlo todo:
consent-agree = He leído lo anterior y acepto participar.

## Playing
play-k-label = Frases por pregunta:
play-exhausted = { $k ->
    [one] Has jugado todas las preguntas con { $k } frase. Prueba otro número de frases arriba.
   *[other] Has jugado todas las preguntas con { $k } frases. Prueba otro número de frases arriba.
}
play-level = Nivel { $level }
play-level-up = ¡Has llegado al nivel { $level }!
play-new-achievement = Nuevo logro: { $name }
play-points = { $n ->
    [one] { $n } punto
   *[other] { $n } puntos
}
play-streak = Racha { $streak } (mejor { $best })
play-from-pairs = Tus pares: +{ $n }
play-today = Hoy { $done } de { $goal }
play-score = { $right } aciertos de { $answered }
play-prompt = ¿Qué palabra va en el hueco?
play-right = ¡Correcto! Era:
play-wrong = Esta vez no. Era:
play-you-chose = Elegiste: { $word }
play-next = Siguiente pregunta

play-achievements = Logros: { $n } de { $all }
ach-first-answer = Primera respuesta.
ach-first-answer-how = Responde una pregunta.
ach-every-k = Las tres.
ach-every-k-how = Responde preguntas con 1, 3 y 5 frases.
ach-polyglot = Políglota.
ach-polyglot-how = Juega en dos idiomas.
ach-ten-in-a-row = Diez seguidas.
ach-ten-in-a-row-how = Acierta diez seguidas.
ach-daily-goal = Meta diaria.
ach-daily-goal-how = Responde 20 preguntas en un día.
ach-level-five = Nivel cinco.
ach-level-five-how = Llega al nivel 5.
ach-pair-in-game = Creador de huecos.
ach-pair-in-game-how = Consigue que acepten en el juego un par que propusiste.
ach-unsolvable = Rompecabezas.
ach-unsolvable-how = Alguien falla tu par incluso con cinco frases.

## Rating
rate-title = Valorar frases
rate-intro = ¿Qué seguridad tienes sobre la palabra que estaba en el hueco? No hay límite de tiempo y no se muestra la respuesta correcta.
rate-none = Ahora mismo ninguna frase en este idioma necesita tu valoración. ¡Gracias!
being-prepared = El modelo de lenguaje de la demostración aún prepara este juego en este idioma: { $ahead ->
    [0] está trabajando en ello ahora
    [one] antes va una tarea
   *[other] antes van { $ahead } tareas
}, unos { $minutes } min. ¡Vuelve pronto!
rate-count = { $n ->
    [one] { $n } valorada
   *[other] { $n } valoradas
}
rate-prompt = ¿Qué palabra estaba en el hueco?
rate-surely = seguro «{ $word }»
rate-probably = probablemente «{ $word }»
rate-cannot-tell = no sé decirlo

## Proposing pairs
suggest-title = Propón un par de palabras
suggest-intro = Dos palabras que podrían llenar el mismo hueco, como «dos / tres» o «rojo / verde». Las frases con la primera palabra se muestran con un hueco, y los jugadores adivinan cuál de las dos era. Los pares más difíciles, los que la gente no sabe distinguir, son los más valiosos.
suggest-language = Idioma
suggest-target = Palabra de las frases
suggest-distractor = Otra palabra
suggest-thanks = Gracias: un administrador lo revisará.
suggest-mine = Tus propuestas
suggestion-status = { $status ->
    [pending] pendiente
    [approved] aprobado
   *[rejected] rechazado
}

## Leaderboard
leaderboard-period = Periodo
leaderboard-week = Esta semana
leaderboard-all-time = Desde siempre
leaderboard-intro = Porcentaje de aciertos de los mejores jugadores (10 respuestas o más) y de los modelos de lenguaje que juegan las mismas preguntas. Un modelo responde a cada pregunta que ha jugado la gente; acierta cuando da más probabilidad a la palabra oculta.
leaderboard-empty = Todavía no hay nadie en la clasificación: juega 10 preguntas para aparecer aquí.
leaderboard-model = modelo
leaderboard-caption = Jugadores y modelos por porcentaje de aciertos
leaderboard-who = Quién
leaderboard-success = Aciertos
leaderboard-right-answered = Correctas / respondidas

## Account
account-title = Tu cuenta
account-playing-as = Juegas como:
account-resume = Seguir en otro dispositivo
account-resume-how = Pon una contraseña y luego entra en otro sitio con tu seudónimo y esa contraseña.
account-new-password = Contraseña (8 caracteres o más)
account-save-password = Guardar contraseña
account-saved = Contraseña guardada.
account-current-password = Contraseña actual (si ya pusiste una)
account-password-hint = Unas cuantas palabras sin relación entre sí forman una contraseña fuerte y fácil de recordar. Se rechazan las contraseñas comunes, los nombres, las fechas, las filas del teclado y las repeticiones. Una contraseña nueva cierra tu sesión en tus otros dispositivos.
account-not-playing = Todavía no juegas en este dispositivo.
account-sign-in-title = Entrar con un seudónimo
account-pseudonym = Seudónimo
account-password = Contraseña
account-sign-in = Entrar
account-sign-out-title = Cerrar la sesión en este dispositivo
account-sign-out-how = Tu seudónimo y tus respuestas se conservan. Sin contraseña no podrás volver a este seudónimo: pon una arriba antes.
account-sign-out = Cerrar sesión

## My data
my-data-intro = Gapwise es un juego de investigación: los investigadores comparan cómo las personas y los modelos de lenguaje distinguen las palabras por sus contextos. Esta página muestra todo lo que guardamos sobre ti.
my-data-start = Empezar a jugar
my-data-download = Descargarlo todo (JSON)
my-data-consent-version = Versión del consentimiento
my-data-since = Desde
my-data-password-set = Contraseña puesta
my-data-browsers = Navegadores con sesión
my-data-items-shown = Preguntas mostradas
my-data-answers = Respuestas
my-data-right = Correctas
my-data-ratings = Valoraciones
my-data-tables = Guardado, tabla por tabla
my-data-tables-note = Cuántas filas de cada tabla con datos de jugadores son tuyas. Borrar las elimina todas.
table-define_picks = Tus elecciones en el juego de definiciones
table-guess_answers = Tus respuestas en el juego de la palabra siguiente
table-guess_answers_replaced = Tus respuestas anteriores en el juego de la palabra siguiente, guardadas tras recontar sus palabras
table-challenge_items = Ítems de tus desafíos
table-challenges = Desafíos enviados o recibidos
table-friends = Amigos
table-answers = Tus respuestas en el juego principal
table-servings = Rondas que se te mostraron en el juego principal
table-rate_ratings = Tus valoraciones
table-define_servings = Rondas que se te mostraron en el juego de definiciones
table-guess_servings = Frases que se te mostraron en el juego de la palabra siguiente
table-new_words_servings = Tus rondas con palabras nuevas
table-cloze_servings = Frases que se te mostraron en el juego de la palabra oculta
table-cloze_answers = Tus respuestas en el juego de la palabra oculta
table-pair_suggestions = Pares de palabras que propusiste
table-export_pseudonyms = Tu identificador aleatorio en las exportaciones de investigación
table-feedback = Mensajes que enviaste
table-crowd_assignments = Estudios en los que participaste
table-sessions = Tus sesiones
my-data-proposals = Propuestas
my-data-pairs = Pares tuyos en el juego
my-data-messages = Mensajes
my-data-export-id = Identificador aleatorio de exportación
my-data-export-id-made = creado
my-data-when = Cuándo
my-data-item = Pregunta
my-data-chosen = Elegida
my-data-time = Tiempo (ms)
my-data-answers-table = Tus respuestas
my-data-rating-line = { $at }: pregunta { $item }, valoración { $rating }
feedback-title = Comentarios
feedback-label = Dinos qué te parece (como mucho { $max } caracteres)
feedback-send = Enviar
feedback-thanks = Gracias: tu mensaje se ha enviado.
erase-title = Borrarlo todo
erase-explain = Esto borra tu seudónimo, cada respuesta, valoración, propuesta y mensaje, y cierra tu sesión. No se puede deshacer. Los pares de palabras tuyos que ya están en el juego se quedan, sin tu nombre.
erase-confirm = Escribe { $word } para confirmar

## Errors
not-found-title = Página no encontrada
not-found-back = Volver al inicio

## Palabra y definición
define-title = Palabra y definición
define-task = En qué sentido
define-w2d = Palabra → definición
define-d2w = Definición → palabra
define-cap = Candidatos
define-cap-n = hasta { $n }
define-intro-w2d = Tienes una palabra y las definiciones de palabras del mismo tipo. ¿Cuál es la definición de esta palabra? Sigue eligiendo hasta encontrarla. Las definiciones están en inglés.
define-intro-d2w = Tienes una definición y palabras del mismo tipo. ¿Qué palabra define? Sigue eligiendo hasta encontrarla. Las palabras están en inglés.
define-none = Ya has jugado todos los grupos de este tamaño. Prueba otro tamaño o el otro sentido.
define-found = { $n ->
    [one] ¡Acertaste a la primera!
   *[other] Correcto, encontrada en { $n } intentos.
}
define-finished = { $n ->
    [one] { $n } ronda
   *[other] { $n } rondas
}
my-data-definition-picks = Elecciones de palabra y definición

## Siguiente palabra
guess-title = Siguiente palabra
guess-mode = Cómo adivinar
guess-mode-type = Escribir
guess-mode-choose = Con sugerencias
guess-intro-type = Una frase aparece palabra a palabra. Adivina la siguiente palabra y escríbela; después verás la palabra que había.
guess-intro-choose = Una frase aparece palabra a palabra. Escribe la siguiente palabra o elígela entre las sugerencias de un modelo de lenguaje; después verás la palabra que había.
guess-none = Ya has jugado todas las frases de este idioma. Prueba otro idioma.
guess-label = Siguiente palabra:
guess-submit = Adivinar
guess-suggestions = O elige una sugerencia:
guess-no-suggestions = Esta frase se empezó sin sugerencias, así que no tiene: termínala escribiendo; la siguiente las traerá.
guess-right = Correcto: «{ $word }».
guess-wrong = Era «{ $word }» (dijiste «{ $guess }»).
guess-sentence-done = Frase terminada, aquí va la siguiente.
guess-progress = Palabra { $n } de { $total }
guess-finished = { $n ->
    [one] { $n } frase
   *[other] { $n } frases
}
my-data-word-guesses = Palabras adivinadas
my-data-invented-word-answers = Respuestas de palabras nuevas

## Levels, challenges, friends
nav-friends = Amigos
play-unlocks-at = Se desbloquea en el nivel { $level }
play-locked = { $k ->
    [one] Jugar con { $k } oración se desbloquea en el nivel { $level }: con menos oraciones es más difícil. Gana puntos antes con más oraciones.
   *[other] Jugar con { $k } oraciones se desbloquea en el nivel { $level }: con menos oraciones es más difícil. Gana puntos antes con más oraciones.
}
play-locked-back = Jugar con cinco oraciones
play-challenge = Desafío: los mismos diez ítems que tu amigo.
play-challenge-done = Has jugado todos los ítems de este desafío. Compara en la página de amigos:
friends-intro = Añade jugadores por su seudónimo: los pares de palabras que propusieron aparecen primero en tu juego. Desafía a un amigo a diez ítems que jugáis los dos, y comparad.
friends-add = Añadir amigo
friends-list = Tus amigos
friends-challenges = Desafíos
friends-pairs = { $n ->
    [one] { $n } par en el juego
   *[other] { $n } pares en el juego
}
friends-challenge = Desafiar a diez ítems
friends-remove = Quitar
friends-versus = Tú { $me }, { $friend } { $them } (de { $n })
friends-you = Tú
friends-play = Jugar el desafío
my-data-friends = Amigos
my-data-challenges = Desafíos
my-data-crowd = Estudio de crowdsourcing (id de participante, estado)

## Crowd studies
crowd-task = { $n ->
    [one] Responderás { $n } ítem: elige cuál de dos palabras llena el hueco. El estudio caduca tras { $minutes } minutos sin respuesta.
   *[other] Responderás { $n } ítems: elige cuál de dos palabras llena el hueco. El estudio caduca tras { $minutes } minutos sin respuesta.
}
crowd-preview = Esto es una vista previa. Acepta la tarea en la plataforma para empezar.
crowd-start = Empezar el estudio
crowd-progress = { $done } de { $target } ítems
crowd-return = Parar y devolver el estudio
crowd-done = Has respondido a todos los ítems del estudio. Da a la plataforma tu código de finalización: el botón de abajo lo lleva por ti.
crowd-back = Volver a la plataforma

## Refusals the server sends back
error-no-session = no hay sesión de juego: empieza en la página de inicio
error-consent = marca la casilla de consentimiento para participar
error-erase-confirm = escribe «{ $word }» para confirmar que se borre todo
error-login = seudónimo desconocido o contraseña incorrecta
error-busy = demasiadas peticiones a la vez; inténtalo de nuevo
error-unavailable = la base de datos del juego no puede guardar nada ahora mismo; no se ha guardado nada; inténtalo de nuevo en un minuto
error-password-length = una contraseña necesita de { $min } a { $max } caracteres
error-password-weak = esta contraseña es demasiado fácil de adivinar: prueba con unas cuantas palabras sin relación entre sí
error-password-current = escribe tu contraseña actual para cambiarla
error-too-many-requests = demasiadas solicitudes desde tu dirección; inténtalo de nuevo dentro de { $seconds } s
error-not-single-word = «{ $word }» no es una sola palabra
error-pair-same = las dos palabras son la misma
error-pair-in-game = { $target } / { $distractor } ya está en el juego
error-pair-proposed = { $target } / { $distractor } ya se ha propuesto y espera una decisión
error-word-unknown = «{ $word }» no aparece en nuestras oraciones en { $language }
error-feedback-length = el comentario debe tener de 1 a { $max } caracteres
error-own-pseudonym = ese es tu propio seudónimo
error-max-friends = puedes tener hasta { $max } amigos
error-not-friend = añade primero a { $name } como amigo
error-few-challenge-items = menos de { $min } ítems con { $k } oraciones son nuevos para los dos; prueba otro número de oraciones
error-no-challenge = no tienes ese desafío
error-no-player = ningún jugador se llama «{ $name }»
error-no-study = ese estudio no existe: revisa el enlace que te dio la plataforma
error-study-link = al enlace le faltan los identificadores de participante y de sesión de la plataforma; abre el estudio desde la plataforma
error-study-returned = Devolviste este estudio, o se acabó su tiempo, así que sus ítems fueron a otras personas. Devuelve el estudio también en la plataforma.
error-study-elsewhere = el estudio de este participante empezó en otra sesión; continúalo en el navegador donde empezó o ábrelo desde la plataforma
error-refused = la solicitud fue rechazada; revisa lo que escribiste e inténtalo de nuevo
error-unauthorized = inicia sesión primero
error-forbidden = no puedes hacer esto
error-not-found = lo que pediste no está aquí
error-no-study-under-way = no tienes ningún estudio en curso
error-guess-length = una respuesta es una palabra de 1 a { $max } caracteres
error-internal = algo ha fallado por nuestra parte; inténtalo de nuevo
error-unreachable = no se pudo contactar con el servidor: { $detail }

## Palabras nuevas
new-words-title = Palabras nuevas
new-words-intro = Cada frase tiene un hueco y una palabra que quizá no conozcas, a veces con la frase que la define. ¿Cuál de las dos opciones llena el hueco? Las frases están en inglés.
new-words-none = Ya has respondido a todas las frases. ¡Gracias!
new-words-right = Correcto: { $answer }.
new-words-wrong = Esta vez no: era { $answer }.
new-words-tally = { $n ->
    [one] { $right } correctas de { $n } frase
   *[other] { $right } correctas de { $n } frases
}
new-words-definition = Definición:
new-words-blank = hueco
skip-to-content = Ir al contenido
erase-word = borrar
leaderboard-you = tú
define-cap-hint = Una ronda muestra hasta 5, 10 o 20 candidatos, según elijas: menos si la palabra tiene menos de su clase. Más candidatos, una ronda más difícil.
crowd-done-title = ¡Gracias!
crowd-code = Tu código de finalización:
crowd-return-confirm = Devolver el estudio lo termina aquí: tus respuestas se guardan, el resto de sus ítems va a otras personas y no podrás empezarlo de nuevo. Después devuelve el estudio también en la plataforma.
crowd-return-yes = Sí, devolver el estudio
crowd-returned-title = Estudio devuelto
crowd-returned = Has devuelto este estudio, o se acabó su tiempo: tus respuestas se conservan y el resto de sus preguntas pasan a otras personas. Devuelve también el estudio en { $platform }, para que tu plaza pase a otra persona.

## Palabra oculta (cloze)
cloze-title = Palabra oculta
cloze-intro = Una palabra de la frase está oculta. Escribe la palabra que crees que había; después verás la palabra y las que esperaba un modelo de lenguaje.
cloze-none = Ya has jugado todas las frases de este idioma. Prueba otro idioma.
cloze-label = La palabra que falta:
cloze-submit = Responder
cloze-right = Correcto: «{ $word }».
cloze-wrong = Era «{ $word }» (escribiste «{ $typed }»).
cloze-model-words = Un modelo de lenguaje esperaba: { $words }.
cloze-no-model-words = Ningún modelo de lenguaje ha leído aún esta frase.
cloze-next = Siguiente frase
