# L'interface de Gapwise en français. Les mêmes messages que dans en/main.ftl.
# Les guillemets tiennent à leur mot par une espace insécable ({"\u00A0"}) : jamais seuls en bout de ligne.

## Page frame
nav-main = Menu principal
nav-menu = Menu
nav-play = Jouer
nav-rate = Évaluer
nav-define = Définitions
nav-guess = Mot suivant
nav-new-words = Mots nouveaux
nav-cloze = Mot caché
nav-propose = Proposer
nav-leaderboard = Classement
nav-account = Compte
nav-my-data = Mes données
footer-staff = Accès de l'équipe
interface-language = Langue de l'interface
items-language = Langue des phrases
loading = Chargement…
start-home = Commencez sur la page d'accueil
blank = blanc
none = Aucun.
none-yet = Aucun pour l'instant.
yes = oui
no = non

## Home page and consent
landing-erased = Tout ce que nous gardions sur vous a été effacé.
landing-signed-out = Vous êtes déconnecté sur cet appareil. Votre pseudonyme et vos réponses sont gardés ; avec son mot de passe, vous pouvez les retrouver.
landing-title = Savez-vous distinguer les mots d'après leur entourage ?
landing-what = Gapwise est un jeu de recherche. Vous voyez des phrases où un mot a été remplacé par un blanc, et deux mots candidats. Choisissez celui qui s'y trouvait. Certaines paires sont faciles ; d'autres sont si proches que les humains comme les modèles de langue se trompent.
landing-why = Les chercheurs comparent vos réponses à celles des modèles de langue pour savoir quelle part du sens d'un mot tient aux contextes où il apparaît.
consent-title = Avant de jouer
consent-pseudonym = Vous jouez sous un pseudonyme tiré au hasard. Nous ne demandons ni nom ni adresse électronique.
consent-record = Nous enregistrons le mot choisi, s'il était juste, et le temps que vous avez mis.
consent-share = Les réponses anonymisées sont partagées avec des chercheurs sous licence CC BY-SA 4.0. Elles ne contiennent jamais votre adresse IP ni le moment où vous avez joué.
consent-voluntary = La participation est volontaire ; vous pouvez arrêter à tout moment. Sur la page ci-dessous, vous pouvez voir tout ce qui est gardé sur vous, le télécharger et tout effacer :
consent-agree = J'ai lu ce qui précède et j'accepte de participer.

## Playing
play-k-label = Phrases par question :
play-exhausted = { $k ->
    [one] Vous avez joué toutes les questions à { $k } phrase. Essayez un autre nombre de phrases ci-dessus.
   *[other] Vous avez joué toutes les questions à { $k } phrases. Essayez un autre nombre de phrases ci-dessus.
}
play-level = Niveau { $level }
play-level-up = Niveau { $level } atteint !
play-new-achievement = Nouveau succès : { $name }
play-points = { $n ->
    [one] { $n } point
   *[other] { $n } points
}
play-streak = Série { $streak } (record { $best })
play-from-pairs = Vos paires : +{ $n }
play-today = Aujourd'hui { $done } sur { $goal }
play-score = { $right } justes sur { $answered }
play-prompt = Quel mot remplit le blanc ?
play-right = Juste ! C'était :
play-wrong = Pas cette fois. C'était :
play-you-chose = Votre choix : { $word }
play-next = Question suivante

play-achievements = Succès : { $n } sur { $all }
ach-first-answer = Première réponse.
ach-first-answer-how = Répondez à une question.
ach-every-k = Les trois.
ach-every-k-how = Répondez à des questions à 1, 3 et 5 phrases.
ach-polyglot = Polyglotte.
ach-polyglot-how = Jouez dans deux langues.
ach-ten-in-a-row = Dix d'affilée.
ach-ten-in-a-row-how = Donnez dix bonnes réponses d'affilée.
ach-daily-goal = Objectif du jour.
ach-daily-goal-how = Répondez à 20 questions en un jour.
ach-level-five = Niveau cinq.
ach-level-five-how = Atteignez le niveau 5.
ach-pair-in-game = Faiseur de blancs.
ach-pair-in-game-how = Faites accepter dans le jeu une paire que vous avez proposée.
ach-unsolvable = Casse-tête.
ach-unsolvable-how = Quelqu'un se trompe sur votre paire même avec cinq phrases.

## Rating
rate-title = Évaluer des phrases
rate-intro = À quel point êtes-vous sûr du mot qui occupait le blanc ? Il n'y a pas de limite de temps, et aucune bonne réponse n'est affichée.
rate-none = Aucune phrase dans cette langue n'attend votre évaluation pour l'instant. Merci !
being-prepared = Le modèle de langue de la démonstration prépare encore ce jeu dans cette langue : { $ahead ->
    [0] il y travaille maintenant
    [one] une tâche passe avant
   *[other] { $ahead } tâches passent avant
}, environ { $minutes } min. Revenez bientôt !
rate-count = { $n ->
    [one] { $n } évaluée
   *[other] { $n } évaluées
}
rate-prompt = Quel mot occupait le blanc ?
rate-surely = sûrement «{"\u00A0"}{ $word }{"\u00A0"}»
rate-probably = probablement «{"\u00A0"}{ $word }{"\u00A0"}»
rate-cannot-tell = impossible à dire

## Proposing pairs
suggest-title = Proposer une paire de mots
suggest-intro = Deux mots qui pourraient remplir le même blanc, comme «{"\u00A0"}deux / trois{"\u00A0"}» ou «{"\u00A0"}rouge / vert{"\u00A0"}». Les phrases contenant le premier mot sont montrées avec un blanc, et les joueurs devinent lequel des deux s'y trouvait. Les paires les plus difficiles, celles que les gens ne savent pas distinguer, sont les plus précieuses.
suggest-language = Langue
suggest-target = Mot des phrases
suggest-distractor = Autre mot
suggest-thanks = Merci : un administrateur va l'examiner.
suggest-mine = Vos propositions
suggestion-status = { $status ->
    [pending] en attente
    [approved] acceptée
   *[rejected] refusée
}

## Leaderboard
leaderboard-period = Période
leaderboard-week = Cette semaine
leaderboard-all-time = Depuis toujours
leaderboard-intro = Taux de réussite des meilleurs joueurs (10 réponses ou plus) et des modèles de langue qui jouent les mêmes questions. Un modèle répond à chaque question jouée par des humains ; il a juste quand il donne au mot caché une probabilité plus élevée.
leaderboard-empty = Personne n'est encore classé : jouez 10 questions pour apparaître ici.
leaderboard-model = modèle
leaderboard-caption = Joueurs et modèles par taux de réussite
leaderboard-who = Qui
leaderboard-success = Réussite
leaderboard-right-answered = Justes / répondues

## Account
account-title = Votre compte
account-playing-as = Vous jouez en tant que :
account-resume = Continuer sur un autre appareil
account-resume-how = Choisissez un mot de passe, puis connectez-vous ailleurs avec votre pseudonyme et ce mot de passe.
account-new-password = Mot de passe (8 caractères ou plus)
account-save-password = Enregistrer le mot de passe
account-saved = Mot de passe enregistré.
account-current-password = Mot de passe actuel (si vous en avez déjà choisi un)
account-password-hint = Quelques mots sans rapport entre eux font un mot de passe solide et facile à retenir. Les mots de passe courants, les noms, les dates, les rangées du clavier et les répétitions sont refusés. Un nouveau mot de passe vous déconnecte de vos autres appareils.
account-not-playing = Vous ne jouez pas encore sur cet appareil.
account-sign-in-title = Se connecter avec un pseudonyme
account-pseudonym = Pseudonyme
account-password = Mot de passe
account-sign-in = Se connecter
account-sign-out-title = Se déconnecter de cet appareil
account-sign-out-how = Votre pseudonyme et vos réponses sont conservés. Sans mot de passe, vous ne pourrez plus revenir à ce pseudonyme : définissez-en un ci-dessus d’abord.
account-sign-out = Se déconnecter

## My data
my-data-intro = Gapwise est un jeu de recherche : des chercheurs comparent la façon dont les humains et les modèles de langue distinguent les mots d'après leurs contextes. Cette page montre tout ce qui est gardé sur vous.
my-data-start = Commencer à jouer
my-data-download = Tout télécharger (JSON)
my-data-consent-version = Version du consentement
my-data-since = Depuis
my-data-password-set = Mot de passe défini
my-data-browsers = Navigateurs connectés
my-data-items-shown = Questions montrées
my-data-answers = Réponses
my-data-right = Justes
my-data-ratings = Évaluations
my-data-tables = Enregistré, table par table
my-data-tables-note = Combien de lignes de chaque table qui contient des données de joueurs sont à vous. L'effacement les supprime toutes.
table-define_picks = Vos choix au jeu des définitions
table-guess_answers = Vos réponses au jeu du mot suivant
table-guess_answers_replaced = Vos réponses antérieures au jeu du mot suivant, gardées après le nouveau décompte de ses mots
table-challenge_items = Questions de vos défis
table-challenges = Défis envoyés ou reçus
table-friends = Amis
table-answers = Vos réponses au jeu principal
table-servings = Manches qui vous ont été montrées au jeu principal
table-rate_ratings = Vos évaluations
table-define_servings = Manches qui vous ont été montrées au jeu des définitions
table-guess_servings = Phrases qui vous ont été montrées au jeu du mot suivant
table-new_words_servings = Vos manches avec des mots nouveaux
table-cloze_servings = Phrases qui vous ont été montrées au jeu du mot caché
table-cloze_answers = Vos réponses au jeu du mot caché
table-pair_suggestions = Paires de mots que vous avez proposées
table-export_pseudonyms = Votre identifiant aléatoire dans les exports de recherche
table-feedback = Messages que vous avez envoyés
table-crowd_assignments = Études auxquelles vous avez participé
table-sessions = Vos sessions
my-data-proposals = Propositions
my-data-pairs = Vos paires dans le jeu
my-data-messages = Messages
my-data-export-id = Identifiant d'export aléatoire
my-data-export-id-made = créé
my-data-when = Quand
my-data-item = Question
my-data-chosen = Choisi
my-data-time = Temps (ms)
my-data-answers-table = Vos réponses
my-data-rating-line = { $at } : question { $item }, note { $rating }
feedback-title = Votre avis
feedback-label = Dites-nous ce que vous en pensez ({ $max } caractères au plus)
feedback-send = Envoyer
feedback-thanks = Merci : votre message a été envoyé.
erase-title = Tout effacer
erase-explain = Cela efface votre pseudonyme, chaque réponse, évaluation, proposition et message, et vous déconnecte. C'est irréversible. Vos paires de mots déjà dans le jeu restent, sans votre nom.
erase-confirm = Tapez { $word } pour confirmer

## Errors
not-found-title = Page introuvable
not-found-back = Retour au début

## Mot et définition
define-title = Mot et définition
define-task = Dans quel sens
define-w2d = Mot → définition
define-d2w = Définition → mot
define-cap = Candidats
define-cap-n = jusqu'à { $n }
define-intro-w2d = Voici un mot et les définitions de mots du même genre. Laquelle est celle de ce mot ? Continuez à choisir jusqu'à la trouver. Les définitions sont en anglais.
define-intro-d2w = Voici une définition et des mots du même genre. Quel mot définit-elle ? Continuez à choisir jusqu'à le trouver. Les mots sont en anglais.
define-none = Vous avez joué tous les groupes de cette taille. Essayez une autre taille ou l'autre sens.
define-found = { $n ->
    [one] Trouvé du premier coup !
   *[other] Juste, trouvé en { $n } essais.
}
define-finished = { $n ->
    [one] { $n } manche
   *[other] { $n } manches
}
my-data-definition-picks = Choix mot et définition

## Mot suivant
guess-title = Mot suivant
guess-mode = Comment deviner
guess-mode-type = Écrire
guess-mode-choose = Avec suggestions
guess-intro-type = Une phrase apparaît mot à mot. Devinez le mot suivant et écrivez-le ; vous verrez ensuite le mot qui était là.
guess-intro-choose = Une phrase apparaît mot à mot. Écrivez le mot suivant ou choisissez-le parmi les suggestions d'un modèle de langue ; vous verrez ensuite le mot qui était là.
guess-none = Vous avez joué toutes les phrases de cette langue. Essayez une autre langue.
guess-label = Mot suivant :
guess-submit = Deviner
guess-suggestions = Ou choisissez une suggestion :
guess-no-suggestions = Cette phrase a été commencée sans suggestions, elle n’en a donc pas : terminez-la en tapant ; la suivante en aura.
guess-right = Juste : «{"\u00A0"}{ $word }{"\u00A0"}».
guess-wrong = C'était «{"\u00A0"}{ $word }{"\u00A0"}» (vous avez proposé «{"\u00A0"}{ $guess }{"\u00A0"}»).
guess-sentence-done = Phrase terminée, voici la suivante.
guess-progress = Mot { $n } sur { $total }
guess-finished = { $n ->
    [one] { $n } phrase
   *[other] { $n } phrases
}
my-data-word-guesses = Mots devinés
my-data-invented-word-answers = Réponses aux mots nouveaux

## Levels, challenges, friends
nav-friends = Amis
play-unlocks-at = Débloqué au niveau { $level }
play-locked = { $k ->
    [one] Jouer avec { $k } phrase se débloque au niveau { $level } : moins de phrases, c’est plus difficile. Gagnez d’abord des points avec plus de phrases.
   *[other] Jouer avec { $k } phrases se débloque au niveau { $level } : moins de phrases, c’est plus difficile. Gagnez d’abord des points avec plus de phrases.
}
play-locked-back = Jouer avec cinq phrases
play-challenge = Défi : les dix mêmes questions que votre ami.
play-challenge-done = Vous avez joué toutes les questions de ce défi. Comparez sur la page des amis :
friends-intro = Ajoutez des joueurs par leur pseudonyme : les paires de mots qu’ils ont proposées passent en premier dans votre jeu. Lancez à un ami un défi de dix questions que vous jouez tous les deux, et comparez.
friends-add = Ajouter un ami
friends-list = Vos amis
friends-challenges = Défis
friends-pairs = { $n ->
    [one] { $n } paire dans le jeu
   *[other] { $n } paires dans le jeu
}
friends-challenge = Défier sur dix questions
friends-remove = Retirer
friends-versus = Vous { $me }, { $friend } { $them } (sur { $n })
friends-you = Vous
friends-play = Jouer le défi
my-data-friends = Amis
my-data-challenges = Défis
my-data-crowd = Étude participative (identifiant de participant, état)

## Crowd studies
crowd-task = { $n ->
    [one] Vous répondrez à { $n } question : choisissez lequel de deux mots remplit le blanc. L’étude expire après { $minutes } minutes sans réponse.
   *[other] Vous répondrez à { $n } questions : choisissez lequel de deux mots remplit le blanc. L’étude expire après { $minutes } minutes sans réponse.
}
crowd-preview = Ceci est un aperçu. Acceptez la tâche sur la plateforme pour commencer.
crowd-start = Commencer l’étude
crowd-progress = { $done } sur { $target } questions
crowd-return = Arrêter et rendre l’étude
crowd-done = Vous avez répondu à tous les items de l’étude. Donnez votre code de fin à la plateforme : le bouton ci-dessous le lui transmet.
crowd-back = Retour à la plateforme

## Refusals the server sends back
error-no-session = pas de session de jeu : commencez sur la page d’accueil
error-consent = cochez la case de consentement pour participer
error-erase-confirm = tapez «{"\u00A0"}{ $word }{"\u00A0"}» pour confirmer que tout doit être effacé
error-login = pseudonyme inconnu ou mot de passe erroné
error-busy = trop de requêtes à la fois ; réessayez
error-unavailable = la base de données du jeu ne peut rien enregistrer pour le moment ; rien n'a été enregistré ; réessayez dans une minute
error-password-length = un mot de passe compte de { $min } à { $max } caractères
error-password-weak = ce mot de passe est trop facile à deviner : essayez quelques mots sans rapport entre eux
error-password-current = tapez votre mot de passe actuel pour le changer
error-too-many-requests = trop de requêtes depuis votre adresse ; réessayez dans { $seconds } s
error-not-single-word = «{"\u00A0"}{ $word }{"\u00A0"}» n’est pas un seul mot
error-pair-same = les deux mots sont le même mot
error-pair-in-game = { $target } / { $distractor } est déjà dans le jeu
error-pair-proposed = { $target } / { $distractor } a déjà été proposée et attend une décision
error-word-unknown = «{"\u00A0"}{ $word }{"\u00A0"}» n’apparaît pas dans nos phrases en { $language }
error-feedback-length = un message compte de 1 à { $max } caractères
error-own-pseudonym = c’est votre propre pseudonyme
error-max-friends = vous pouvez avoir jusqu’à { $max } amis
error-not-friend = ajoutez d’abord { $name } comme ami
error-few-challenge-items = moins de { $min } questions à { $k } phrases sont nouvelles pour vous deux ; essayez un autre nombre de phrases
error-no-challenge = vous n’avez pas ce défi
error-no-player = aucun joueur ne s’appelle «{"\u00A0"}{ $name }{"\u00A0"}»
error-no-study = cette étude n’existe pas : vérifiez le lien donné par la plateforme
error-study-link = il manque au lien les identifiants de participant et de session de la plateforme ; ouvrez l’étude depuis la plateforme
error-study-returned = Vous avez rendu cette étude, ou son temps est écoulé : ses items sont allés à d’autres. Rendez l’étude sur la plateforme aussi.
error-study-elsewhere = l’étude de ce participant a commencé dans une autre session ; continuez-la dans le navigateur où elle a commencé, ou ouvrez-la depuis la plateforme
error-refused = la demande a été refusée ; vérifiez ce que vous avez saisi et réessayez
error-unauthorized = connectez-vous d’abord
error-forbidden = vous ne pouvez pas faire cela
error-not-found = ce que vous demandez n’est pas ici
error-no-study-under-way = vous n’avez pas d’étude en cours
error-guess-length = une proposition est un mot de 1 à { $max } caractères
error-internal = un problème est survenu de notre côté ; réessayez
error-unreachable = le serveur est injoignable : { $detail }

## Mots nouveaux
new-words-title = Mots nouveaux
new-words-intro = Chaque phrase a un blanc et un mot que vous ne connaissez peut-être pas, parfois avec la phrase qui le définit. Laquelle des deux options remplit le blanc ? Les phrases sont en anglais.
new-words-none = Vous avez répondu à toutes les phrases. Merci !
new-words-right = Juste : { $answer }.
new-words-wrong = Pas cette fois : c'était { $answer }.
new-words-tally = { $n ->
    [one] { $right } justes sur { $n } phrase
   *[other] { $right } justes sur { $n } phrases
}
new-words-definition = Définition :
new-words-blank = blanc
skip-to-content = Aller au contenu
erase-word = effacer
leaderboard-you = vous
define-cap-hint = Une manche montre jusqu’à 5, 10 ou 20 candidats, selon votre choix : moins quand le mot a moins de semblables. Plus de candidats, une manche plus difficile.
crowd-done-title = Merci !
crowd-code = Votre code de fin :
crowd-return-confirm = Rendre l’étude l’arrête ici : vos réponses sont gardées, le reste de ses items va à d’autres, et vous ne pourrez pas la recommencer. Rendez ensuite l’étude sur la plateforme aussi.
crowd-return-yes = Oui, rendre l’étude
crowd-returned-title = Étude rendue
crowd-returned = Vous avez rendu cette étude, ou son temps est écoulé : vos réponses sont conservées et ses autres questions vont à d'autres personnes. Rendez aussi l'étude sur { $platform }, pour que votre place aille à quelqu'un d'autre.

## Mot caché (cloze)
cloze-title = Mot caché
cloze-intro = Un mot de la phrase est caché. Écrivez le mot qui, selon vous, était là ; vous verrez ensuite le mot, et ceux qu'attendait un modèle de langue.
cloze-none = Vous avez joué toutes les phrases de cette langue. Essayez une autre langue.
cloze-label = Le mot manquant :
cloze-submit = Répondre
cloze-right = Juste : «{"\u00A0"}{ $word }{"\u00A0"}».
cloze-wrong = C'était «{"\u00A0"}{ $word }{"\u00A0"}» (vous avez écrit «{"\u00A0"}{ $typed }{"\u00A0"}»).
cloze-model-words = Un modèle de langue attendait : { $words }.
cloze-no-model-words = Aucun modèle de langue n'a encore lu cette phrase.
cloze-next = Phrase suivante
