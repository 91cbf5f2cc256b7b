# Gapwise's interface in English. Every file in app/locales holds the same messages
# (a test checks it). Arguments are in { $braces }; numbers choose plural forms.

## Page frame
nav-main = Main
nav-menu = Menu
nav-play = Play
nav-rate = Rate
nav-define = Definitions
nav-guess = Next word
nav-new-words = New words
nav-cloze = Missing word
nav-propose = Propose
nav-leaderboard = Leaderboard
nav-account = Account
nav-my-data = My data
footer-staff = Staff sign-in
interface-language = Interface language
items-language = Language of the sentences
loading = Loading…
start-home = Start on the home page
blank = blank
none = None.
none-yet = None yet.
yes = yes
no = no

## Home page and consent
landing-erased = Everything we stored about you has been erased.
landing-signed-out = You are signed out on this device. Your pseudonym and answers are kept; with its password you can come back to them.
landing-title = Can you tell words apart by their company?
landing-what = Gapwise is a research game. You see sentences in which one word was replaced by a blank, and two candidate words. Pick the one that was there. Some pairs are easy; some are so close that people and language models alike get them wrong.
landing-why = Researchers compare your answers with those of language models to learn how much of a word's meaning is in the contexts it appears in.
consent-title = Before you play
consent-pseudonym = You play under a random pseudonym. We ask for no name and no e-mail address.
consent-record = We record which word you chose, whether it was right, and how long you took.
consent-share = Anonymised answers are shared with researchers under CC BY-SA 4.0. They never contain your IP address or when you played.
consent-voluntary = Taking part is voluntary; you can stop at any time. On the page below you can see everything stored about you, download it, and erase all of it:
consent-agree = I have read the above and agree to take part.

## Playing
play-k-label = Sentences per item:
play-exhausted = { $k ->
    [one] You have played every item with { $k } sentence. Try another number of sentences above.
   *[other] You have played every item with { $k } sentences. Try another number of sentences above.
}
play-level = Level { $level }
play-level-up = Level { $level } reached!
play-new-achievement = New achievement: { $name }
play-points = { $n ->
    [one] { $n } point
   *[other] { $n } points
}
play-streak = Streak { $streak } (best { $best })
play-from-pairs = Your pairs: +{ $n }
play-today = Today { $done } of { $goal }
play-score = { $right } right of { $answered }
play-prompt = Which word fills the blank?
play-right = Right! It was:
play-wrong = Not this time. It was:
play-you-chose = You chose: { $word }
play-next = Next item

play-achievements = Achievements: { $n } of { $all }
ach-first-answer = First answer.
ach-first-answer-how = Answer an item.
ach-every-k = All three.
ach-every-k-how = Answer items with 1, 3 and 5 sentences.
ach-polyglot = Polyglot.
ach-polyglot-how = Play in two languages.
ach-ten-in-a-row = Ten in a row.
ach-ten-in-a-row-how = Get ten right answers in a row.
ach-daily-goal = Daily goal.
ach-daily-goal-how = Answer 20 items in one day.
ach-level-five = Level five.
ach-level-five-how = Reach level 5.
ach-pair-in-game = Blanker.
ach-pair-in-game-how = Have a proposed pair accepted into the game.
ach-unsolvable = Puzzle maker.
ach-unsolvable-how = Someone misses your pair even with five sentences.

## Rating
rate-title = Rate sentences
rate-intro = How sure are you which word was in the blank? There is no time limit, and no right answer is shown.
rate-none = No sentence in this language needs your rating now. Thank you!
being-prepared = The demo's language model is still preparing this game in this language: { $ahead ->
    [0] it is at work on it now
    [one] one task runs before it
   *[other] { $ahead } tasks run before it
}, about { $minutes } min. Come back soon!
rate-count = { $n ->
    [one] { $n } rated
   *[other] { $n } rated
}
rate-prompt = Which word was in the blank?
rate-surely = surely { $word }
rate-probably = probably { $word }
rate-cannot-tell = can't tell

## Proposing pairs
suggest-title = Propose a word pair
suggest-intro = Two words that could fill the same blank, like "two / three" or "red / green". Sentences with the first word are shown with it blanked, and players guess which of the two it was. The hardest pairs, the ones people cannot tell apart, are the most valuable.
suggest-language = Language
suggest-target = Word in the sentences
suggest-distractor = Other word
suggest-thanks = Thank you: an admin will look at it.
suggest-mine = Your proposals
suggestion-status = { $status ->
    [pending] pending
    [approved] approved
   *[rejected] rejected
}

## Leaderboard
leaderboard-period = Period
leaderboard-week = This week
leaderboard-all-time = All time
leaderboard-intro = Success rate of the best players (10 answers or more) and of the language models that play the same items. A model answers each item people have played; it is right when it gives the hidden word a higher probability.
leaderboard-empty = Nobody is ranked yet: play 10 items to appear here.
leaderboard-model = model
leaderboard-caption = Players and models by success rate
leaderboard-who = Who
leaderboard-success = Success
leaderboard-right-answered = Right / answered

## Account
account-title = Your account
account-playing-as = You play as:
account-resume = Resume on another device
account-resume-how = Set a password, then sign in elsewhere with your pseudonym and it.
account-new-password = Password (8 characters or more)
account-save-password = Save password
account-saved = Password saved.
account-current-password = Current password (if you set one before)
account-password-hint = A few unrelated words make a strong password that is easy to remember. Common passwords, names, dates, keyboard rows and repeats are refused. A new password signs you out on your other devices.
account-not-playing = You are not playing on this device yet.
account-sign-in-title = Sign in with a pseudonym
account-pseudonym = Pseudonym
account-password = Password
account-sign-in = Sign in
account-sign-out-title = Sign out of this device
account-sign-out-how = Your pseudonym and answers stay. Without a password you cannot come back to this pseudonym: set one above first.
account-sign-out = Sign out

## My data
my-data-intro = Gapwise is a research game: researchers compare how people and language models tell words apart from their contexts. This page shows everything stored about you.
my-data-start = Start playing
my-data-download = Download all of it (JSON)
my-data-consent-version = Consent version
my-data-since = Since
my-data-password-set = Password set
my-data-browsers = Signed-in browsers
my-data-items-shown = Items shown
my-data-answers = Answers
my-data-right = Right
my-data-ratings = Ratings
my-data-tables = Stored, table by table
my-data-tables-note = How many rows of each table that holds players' data are yours. Erasing deletes all of them.
table-define_picks = Your picks in the definition game
table-guess_answers = Your guesses in the next-word game
table-guess_answers_replaced = Your earlier guesses in the next-word game, kept after its words were recounted
table-challenge_items = Items of your challenges
table-challenges = Challenges you sent or received
table-friends = Friends
table-answers = Your answers in the main game
table-servings = Rounds shown to you in the main game
table-rate_ratings = Your ratings
table-define_servings = Rounds shown to you in the definition game
table-guess_servings = Sentences shown to you in the next-word game
table-new_words_servings = Your rounds with new words
table-cloze_servings = Sentences shown to you in the missing-word game
table-cloze_answers = Your answers in the missing-word game
table-pair_suggestions = Word pairs you proposed
table-export_pseudonyms = Your random id in research exports
table-feedback = Messages you sent
table-crowd_assignments = Studies you took part in
table-sessions = Your sign-ins (sessions)
my-data-proposals = Proposals
my-data-pairs = Pairs of yours in the game
my-data-messages = Messages
my-data-export-id = Random export ID
my-data-export-id-made = made
my-data-when = When
my-data-item = Item
my-data-chosen = Chosen
my-data-time = Time (ms)
my-data-answers-table = Your answers
my-data-rating-line = { $at }: item { $item }, rated { $rating }
feedback-title = Feedback
feedback-label = Tell us what you think (at most { $max } characters)
feedback-send = Send
feedback-thanks = Thank you: your message was sent.
erase-title = Erase everything
erase-explain = This deletes your pseudonym, every answer, rating, proposal and message, and signs you out. It cannot be undone. Word pairs of yours that are already in the game stay, without your name.
erase-confirm = Type { $word } to confirm

## Errors
not-found-title = Page not found
not-found-back = Back to the start

## Word and definition
define-title = Word and definition
define-task = Which way round
define-w2d = Word → definition
define-d2w = Definition → word
define-cap = Candidates
define-cap-n = up to { $n }
define-intro-w2d = Here is a word and the definitions of words of the same kind. Which definition is this word's? Keep picking until you find it.
define-intro-d2w = Here is a definition and words of the same kind. Which word does it define? Keep picking until you find it.
define-none = You have played every group of this size. Try another size or the other way round.
define-found = { $n ->
    [one] Right at the first pick!
   *[other] Right, found in { $n } picks.
}
define-finished = { $n ->
    [one] { $n } round
   *[other] { $n } rounds
}
my-data-definition-picks = Word and definition picks

## Next word
guess-title = Next word
guess-mode = How to guess
guess-mode-type = Type
guess-mode-choose = With suggestions
guess-intro-type = A sentence appears word by word. Guess the next word and type it; then you see the word that was there.
guess-intro-choose = A sentence appears word by word. Type the next word, or pick it from a language model's suggestions; then you see the word that was there.
guess-none = You have played every sentence of this language here. Try another language.
guess-label = Next word:
guess-submit = Guess
guess-suggestions = Or pick a suggestion:
guess-no-suggestions = This sentence was begun without suggestions, so it has none: finish it by typing; the next sentence comes with them.
guess-right = Right: “{ $word }”.
guess-wrong = It was “{ $word }” (you guessed “{ $guess }”).
guess-sentence-done = Sentence done, here is the next one.
guess-progress = Word { $n } of { $total }
guess-finished = { $n ->
    [one] { $n } sentence
   *[other] { $n } sentences
}
my-data-word-guesses = Next-word guesses
my-data-invented-word-answers = New-word answers

## Levels, challenges, friends
nav-friends = Friends
play-unlocks-at = Unlocks at level { $level }
play-locked = { $k ->
    [one] Playing with { $k } sentence unlocks at level { $level }: fewer sentences are harder. Earn points with more sentences first.
   *[other] Playing with { $k } sentences unlocks at level { $level }: fewer sentences are harder. Earn points with more sentences first.
}
play-locked-back = Play with five sentences
play-challenge = Challenge: the same ten items as your friend.
play-challenge-done = You played every item of this challenge. Compare on the friends page:
friends-intro = Add players by their pseudonym: the word pairs they proposed come first in your game. Challenge a friend to ten items you both play, and compare.
friends-add = Add friend
friends-list = Your friends
friends-challenges = Challenges
friends-pairs = { $n ->
    [one] { $n } pair in the game
   *[other] { $n } pairs in the game
}
friends-challenge = Challenge to ten items
friends-remove = Remove
friends-versus = You { $me }, { $friend } { $them } (of { $n })
friends-you = You
friends-play = Play the challenge
my-data-friends = Friends
my-data-challenges = Challenges
my-data-crowd = Crowd study (participant id, status)

## Crowd studies
crowd-task = { $n ->
    [one] You will answer { $n } item: pick which of two words fills the blank. The study times out after { $minutes } minutes without an answer.
   *[other] You will answer { $n } items: pick which of two words fills the blank. The study times out after { $minutes } minutes without an answer.
}
crowd-preview = This is a preview. Accept the task on the platform to start.
crowd-start = Start the study
crowd-progress = { $done } of { $target } items
crowd-return = Stop and give the study back
crowd-done = You answered every item of the study. Give the platform your completion code: the button below takes it there for you.
crowd-back = Back to the platform

## Refusals the server sends back
error-no-session = no game session: start on the home page
error-consent = please tick the consent box to take part
error-erase-confirm = type "{ $word }" to confirm that everything should be erased
error-login = unknown pseudonym or wrong password
error-busy = too many requests at once; please try again
error-unavailable = the game's database cannot store anything just now; nothing was saved; please try again in a minute
error-password-length = a password needs { $min } to { $max } characters
error-password-weak = this password is too easy to guess: try a few unrelated words
error-password-current = type your current password to change it
error-too-many-requests = too many requests from your address; please try again in { $seconds } s
error-not-single-word = "{ $word }" is not a single word
error-pair-same = the two words are the same word
error-pair-in-game = { $target } / { $distractor } is already in the game
error-pair-proposed = { $target } / { $distractor } has already been proposed and awaits a decision
error-word-unknown = "{ $word }" does not occur in our { $language } sentences
error-feedback-length = feedback must have 1 to { $max } characters
error-own-pseudonym = that is your own pseudonym
error-max-friends = you can have up to { $max } friends
error-not-friend = add { $name } as a friend first
error-few-challenge-items = fewer than { $min } items with { $k } sentences are new to you both; try another number of sentences
error-no-challenge = no such challenge of yours
error-no-player = no player is called "{ $name }"
error-no-study = there is no such study: check the link the platform gave you
error-study-link = the link lacks the platform's participant and session ids; open the study from the platform
error-study-returned = You gave this study back, or its time ran out, so its items went to others. Please return the study on the platform too.
error-study-elsewhere = this participant's study was begun in another session; continue it in the browser where it began, or open it from the platform
error-refused = the request was refused; please check what you entered and try again
error-unauthorized = please sign in first
error-forbidden = you may not do this
error-not-found = what you asked for is not here
error-no-study-under-way = you have no study under way
error-guess-length = a guess is one word of 1 to { $max } characters
error-internal = something went wrong on our side; please try again
error-unreachable = the server could not be reached: { $detail }

## New words
new-words-title = New words
new-words-intro = Each sentence has a blank and a word you may not know, sometimes with the sentence that defines it. Which of the two fills the blank?
new-words-none = You have answered every item. Thank you!
new-words-right = Right: { $answer }.
new-words-wrong = Not this time: it was { $answer }.
new-words-tally = { $n ->
    [one] { $right } right of { $n } item
   *[other] { $right } right of { $n } items
}
new-words-definition = Definition:
new-words-blank = blank
skip-to-content = Skip to the content
erase-word = erase
leaderboard-you = you
define-cap-hint = A round shows up to 5, 10 or 20 candidates, as you choose: fewer when the word has fewer of its kind. More candidates, a harder round.
crowd-done-title = Thank you!
crowd-code = Your completion code:
crowd-return-confirm = Giving the study back ends it here: your answers are kept, the rest of its items go to others, and you cannot start it again. Then return the study on the platform too.
crowd-return-yes = Yes, give the study back
crowd-returned-title = Study given back
crowd-returned = You gave this study back, or its time ran out: your answers are kept, and its other items go to others. Please return the study on { $platform } too, so that your place goes to someone else.

## Missing word (cloze)
cloze-title = Missing word
cloze-intro = One word of the sentence is hidden. Type the word you think was there; then you see the word, and the words a language model expected there.
cloze-none = You have played every sentence of this language here. Try another language.
cloze-label = The missing word:
cloze-submit = Answer
cloze-right = Right: “{ $word }”.
cloze-wrong = It was “{ $word }” (you wrote “{ $typed }”).
cloze-model-words = A language model expected: { $words }.
cloze-no-model-words = No language model has read this sentence yet.
cloze-next = Next sentence
