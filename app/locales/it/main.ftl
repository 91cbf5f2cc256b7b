# L'interfaccia di Gapwise in italiano. Gli stessi messaggi di en/main.ftl.

## Page frame
nav-main = Menu principale
nav-menu = Menu
nav-play = Gioca
nav-rate = Valuta
nav-define = Definizioni
nav-guess = Parola successiva
nav-new-words = Parole nuove
nav-cloze = Parola nascosta
nav-propose = Proponi
nav-leaderboard = Classifica
nav-account = Account
nav-my-data = I miei dati
footer-staff = Accesso per lo staff
interface-language = Lingua dell'interfaccia
items-language = Lingua delle frasi
loading = Caricamento…
start-home = Comincia dalla pagina iniziale
blank = spazio vuoto
none = Nessuno.
none-yet = Ancora nessuno.
yes = sì
no = no

## Home page and consent
landing-erased = Tutto ciò che conservavamo su di te è stato cancellato.
landing-signed-out = Sei uscito su questo dispositivo. Il tuo pseudonimo e le tue risposte restano; con la sua password puoi ritrovarli.
landing-title = Sai distinguere le parole dalla compagnia che frequentano?
landing-what = Gapwise è un gioco di ricerca. Vedi frasi in cui una parola è stata sostituita da uno spazio vuoto, e due parole candidate. Scegli quella che c'era. Alcune coppie sono facili; altre sono così vicine che sbagliano sia le persone sia i modelli linguistici.
landing-why = I ricercatori confrontano le tue risposte con quelle dei modelli linguistici per capire quanta parte del significato di una parola sta nei contesti in cui compare.
consent-title = Prima di giocare
consent-pseudonym = Giochi con uno pseudonimo casuale. Non chiediamo né nome né indirizzo e-mail.
consent-record = Registriamo quale parola hai scelto, se era giusta e quanto tempo hai impiegato.
consent-share = Le risposte anonimizzate sono condivise con i ricercatori con licenza CC BY-SA 4.0. Non contengono mai il tuo indirizzo IP né quando hai giocato.
consent-voluntary = La partecipazione è volontaria; puoi smettere in qualsiasi momento. Nella pagina qui sotto puoi vedere tutto ciò che conserviamo su di te, scaricarlo e cancellarlo del tutto:
consent-agree = Ho letto quanto sopra e accetto di partecipare.

## Playing
play-k-label = Frasi per domanda:
play-exhausted = { $k ->
    [one] Hai giocato tutte le domande con { $k } frase. Prova un altro numero di frasi qui sopra.
   *[other] Hai giocato tutte le domande con { $k } frasi. Prova un altro numero di frasi qui sopra.
}
play-level = Livello { $level }
play-level-up = Hai raggiunto il livello { $level }!
play-new-achievement = Nuovo traguardo: { $name }
play-points = { $n ->
    [one] { $n } punto
   *[other] { $n } punti
}
play-streak = Serie { $streak } (record { $best })
play-from-pairs = Le tue coppie: +{ $n }
play-today = Oggi { $done } su { $goal }
play-score = { $right } giuste su { $answered }
play-prompt = Quale parola riempie lo spazio vuoto?
play-right = Giusto! Era:
play-wrong = Non questa volta. Era:
play-you-chose = Hai scelto: { $word }
play-next = Domanda successiva

play-achievements = Traguardi: { $n } su { $all }
ach-first-answer = Prima risposta.
ach-first-answer-how = Rispondi a una domanda.
ach-every-k = Tutte e tre.
ach-every-k-how = Rispondi a domande con 1, 3 e 5 frasi.
ach-polyglot = Poliglotta.
ach-polyglot-how = Gioca in due lingue.
ach-ten-in-a-row = Dieci di fila.
ach-ten-in-a-row-how = Dai dieci risposte giuste di fila.
ach-daily-goal = Obiettivo del giorno.
ach-daily-goal-how = Rispondi a 20 domande in un giorno.
ach-level-five = Livello cinque.
ach-level-five-how = Raggiungi il livello 5.
ach-pair-in-game = Creatore di vuoti.
ach-pair-in-game-how = Fai accettare nel gioco una coppia che hai proposto.
ach-unsolvable = Rompicapo.
ach-unsolvable-how = Qualcuno sbaglia la tua coppia anche con cinque frasi.

## Rating
rate-title = Valuta frasi
rate-intro = Quanto sei sicuro di quale parola c'era nello spazio vuoto? Non c'è limite di tempo e la risposta giusta non viene mostrata.
rate-none = Al momento nessuna frase in questa lingua aspetta la tua valutazione. Grazie!
being-prepared = Il modello linguistico della demo sta ancora preparando questo gioco in questa lingua: { $ahead ->
    [0] ci sta lavorando ora
    [one] prima c'è un compito
   *[other] prima ci sono { $ahead } compiti
}, circa { $minutes } min. Torna presto!
rate-count = { $n ->
    [one] { $n } valutata
   *[other] { $n } valutate
}
rate-prompt = Quale parola c'era nello spazio vuoto?
rate-surely = sicuramente «{ $word }»
rate-probably = probabilmente «{ $word }»
rate-cannot-tell = non saprei

## Proposing pairs
suggest-title = Proponi una coppia di parole
suggest-intro = Due parole che potrebbero riempire lo stesso spazio, come «due / tre» o «rosso / verde». Le frasi con la prima parola vengono mostrate con uno spazio vuoto, e i giocatori indovinano quale delle due c'era. Le coppie più difficili, quelle che le persone non sanno distinguere, sono le più preziose.
suggest-language = Lingua
suggest-target = Parola delle frasi
suggest-distractor = Altra parola
suggest-thanks = Grazie: un amministratore la esaminerà.
suggest-mine = Le tue proposte
suggestion-status = { $status ->
    [pending] in attesa
    [approved] approvata
   *[rejected] rifiutata
}

## Leaderboard
leaderboard-period = Periodo
leaderboard-week = Questa settimana
leaderboard-all-time = Da sempre
leaderboard-intro = Percentuale di risposte giuste dei migliori giocatori (10 risposte o più) e dei modelli linguistici che giocano le stesse domande. Un modello risponde a ogni domanda giocata dalle persone; ha ragione quando dà alla parola nascosta una probabilità più alta.
leaderboard-empty = Ancora nessuno in classifica: gioca 10 domande per comparire qui.
leaderboard-model = modello
leaderboard-caption = Giocatori e modelli per percentuale di risposte giuste
leaderboard-who = Chi
leaderboard-success = Successo
leaderboard-right-answered = Giuste / date

## Account
account-title = Il tuo account
account-playing-as = Giochi come:
account-resume = Continua su un altro dispositivo
account-resume-how = Imposta una password, poi accedi altrove con il tuo pseudonimo e la password.
account-new-password = Password (almeno 8 caratteri)
account-save-password = Salva la password
account-saved = Password salvata.
account-current-password = Password attuale (se ne hai già impostata una)
account-password-hint = Alcune parole senza legame tra loro formano una password robusta e facile da ricordare. Le password comuni, i nomi, le date, le file della tastiera e le ripetizioni vengono rifiutati. Una nuova password ti disconnette dagli altri dispositivi.
account-not-playing = Non stai ancora giocando su questo dispositivo.
account-sign-in-title = Accedi con uno pseudonimo
account-pseudonym = Pseudonimo
account-password = Password
account-sign-in = Accedi
account-sign-out-title = Esci da questo dispositivo
account-sign-out-how = Il tuo pseudonimo e le tue risposte restano. Senza password non potrai tornare a questo pseudonimo: impostane una qui sopra prima.
account-sign-out = Esci

## My data
my-data-intro = Gapwise è un gioco di ricerca: i ricercatori confrontano come le persone e i modelli linguistici distinguono le parole dai loro contesti. Questa pagina mostra tutto ciò che conserviamo su di te.
my-data-start = Comincia a giocare
my-data-download = Scarica tutto (JSON)
my-data-consent-version = Versione del consenso
my-data-since = Dal
my-data-password-set = Password impostata
my-data-browsers = Browser con accesso
my-data-items-shown = Domande mostrate
my-data-answers = Risposte
my-data-right = Giuste
my-data-ratings = Valutazioni
my-data-tables = Memorizzato, tabella per tabella
my-data-tables-note = Quante righe di ogni tabella con dati dei giocatori sono tue. La cancellazione le elimina tutte.
table-define_picks = Le tue scelte nel gioco delle definizioni
table-guess_answers = Le tue risposte nel gioco della parola successiva
table-guess_answers_replaced = Le tue risposte precedenti nel gioco della parola successiva, conservate dopo il nuovo conteggio delle parole
table-challenge_items = Domande delle tue sfide
table-challenges = Sfide inviate o ricevute
table-friends = Amici
table-answers = Le tue risposte nel gioco principale
table-servings = Turni mostrati nel gioco principale
table-rate_ratings = Le tue valutazioni
table-define_servings = Turni mostrati nel gioco delle definizioni
table-guess_servings = Frasi mostrate nel gioco della parola successiva
table-new_words_servings = I tuoi turni con parole nuove
table-cloze_servings = Frasi mostrate nel gioco della parola nascosta
table-cloze_answers = Le tue risposte nel gioco della parola nascosta
table-pair_suggestions = Coppie di parole che hai proposto
table-export_pseudonyms = Il tuo identificativo casuale nelle esportazioni di ricerca
table-feedback = Messaggi che hai inviato
table-crowd_assignments = Studi a cui hai partecipato
table-sessions = Le tue sessioni
my-data-proposals = Proposte
my-data-pairs = Tue coppie nel gioco
my-data-messages = Messaggi
my-data-export-id = Identificativo casuale di esportazione
my-data-export-id-made = creato
my-data-when = Quando
my-data-item = Domanda
my-data-chosen = Scelta
my-data-time = Tempo (ms)
my-data-answers-table = Le tue risposte
my-data-rating-line = { $at }: domanda { $item }, valutazione { $rating }
feedback-title = Commenti
feedback-label = Dicci cosa ne pensi (al massimo { $max } caratteri)
feedback-send = Invia
feedback-thanks = Grazie: il tuo messaggio è stato inviato.
erase-title = Cancella tutto
erase-explain = Questo cancella il tuo pseudonimo, ogni risposta, valutazione, proposta e messaggio, e ti disconnette. Non si può annullare. Le tue coppie di parole già nel gioco restano, senza il tuo nome.
erase-confirm = Scrivi { $word } per confermare

## Errors
not-found-title = Pagina non trovata
not-found-back = Torna all'inizio

## Parola e definizione
define-title = Parola e definizione
define-task = In quale verso
define-w2d = Parola → definizione
define-d2w = Definizione → parola
define-cap = Candidati
define-cap-n = fino a { $n }
define-intro-w2d = Ecco una parola e le definizioni di parole dello stesso tipo. Qual è la definizione di questa parola? Continua a scegliere finché non la trovi. Le definizioni sono in inglese.
define-intro-d2w = Ecco una definizione e parole dello stesso tipo. Quale parola definisce? Continua a scegliere finché non la trovi. Le parole sono in inglese.
define-none = Hai giocato tutti i gruppi di questa dimensione. Prova un'altra dimensione o l'altro verso.
define-found = { $n ->
    [one] Giusto al primo tentativo!
   *[other] Giusto, trovata in { $n } tentativi.
}
define-finished = { $n ->
    [one] { $n } turno
   *[other] { $n } turni
}
my-data-definition-picks = Scelte parola e definizione

## Parola successiva
guess-title = Parola successiva
guess-mode = Come indovinare
guess-mode-type = Scrivere
guess-mode-choose = Con suggerimenti
guess-intro-type = Una frase appare parola per parola. Indovina la parola successiva e scrivila; poi vedrai la parola che c'era.
guess-intro-choose = Una frase appare parola per parola. Scrivi la parola successiva o sceglila tra i suggerimenti di un modello linguistico; poi vedrai la parola che c'era.
guess-none = Hai giocato tutte le frasi di questa lingua. Prova un'altra lingua.
guess-label = Parola successiva:
guess-submit = Indovina
guess-suggestions = Oppure scegli un suggerimento:
guess-no-suggestions = Questa frase è stata iniziata senza suggerimenti, quindi non ne ha: finiscila scrivendo; la prossima li avrà.
guess-right = Giusto: «{ $word }».
guess-wrong = Era «{ $word }» (hai detto «{ $guess }»).
guess-sentence-done = Frase finita, ecco la prossima.
guess-progress = Parola { $n } di { $total }
guess-finished = { $n ->
    [one] { $n } frase
   *[other] { $n } frasi
}
my-data-word-guesses = Parole indovinate
my-data-invented-word-answers = Risposte alle parole nuove

## Levels, challenges, friends
nav-friends = Amici
play-unlocks-at = Si sblocca al livello { $level }
play-locked = { $k ->
    [one] Giocare con { $k } frase si sblocca al livello { $level }: con meno frasi è più difficile. Prima guadagna punti con più frasi.
   *[other] Giocare con { $k } frasi si sblocca al livello { $level }: con meno frasi è più difficile. Prima guadagna punti con più frasi.
}
play-locked-back = Gioca con cinque frasi
play-challenge = Sfida: gli stessi dieci quesiti del tuo amico.
play-challenge-done = Hai giocato tutti i quesiti di questa sfida. Confronta nella pagina degli amici:
friends-intro = Aggiungi giocatori con il loro pseudonimo: le coppie di parole che hanno proposto vengono prima nel tuo gioco. Sfida un amico su dieci quesiti che giocate entrambi, e confrontate.
friends-add = Aggiungi amico
friends-list = I tuoi amici
friends-challenges = Sfide
friends-pairs = { $n ->
    [one] { $n } coppia nel gioco
   *[other] { $n } coppie nel gioco
}
friends-challenge = Sfida su dieci quesiti
friends-remove = Rimuovi
friends-versus = Tu { $me }, { $friend } { $them } (su { $n })
friends-you = Tu
friends-play = Gioca la sfida
my-data-friends = Amici
my-data-challenges = Sfide
my-data-crowd = Studio di crowdsourcing (id partecipante, stato)

## Crowd studies
crowd-task = { $n ->
    [one] Risponderai a { $n } quesito: scegli quale di due parole riempie lo spazio. Lo studio scade dopo { $minutes } minuti senza risposta.
   *[other] Risponderai a { $n } quesiti: scegli quale di due parole riempie lo spazio. Lo studio scade dopo { $minutes } minuti senza risposta.
}
crowd-preview = Questa è un’anteprima. Accetta il compito sulla piattaforma per iniziare.
crowd-start = Inizia lo studio
crowd-progress = { $done } di { $target } quesiti
crowd-return = Fermati e restituisci lo studio
crowd-done = Hai risposto a tutti gli item dello studio. Dai alla piattaforma il tuo codice di completamento: il pulsante qui sotto lo porta per te.
crowd-back = Torna alla piattaforma

## Refusals the server sends back
error-no-session = nessuna sessione di gioco: comincia dalla pagina iniziale
error-consent = spunta la casella del consenso per partecipare
error-erase-confirm = scrivi «{ $word }» per confermare che tutto va cancellato
error-login = pseudonimo sconosciuto o password errata
error-busy = troppe richieste insieme; riprova
error-unavailable = il database del gioco non può salvare nulla in questo momento; non è stato salvato nulla; riprova tra un minuto
error-password-length = una password ha da { $min } a { $max } caratteri
error-password-weak = questa password è troppo facile da indovinare: prova con alcune parole senza legame tra loro
error-password-current = scrivi la password attuale per cambiarla
error-too-many-requests = troppe richieste dal tuo indirizzo; riprova tra { $seconds } s
error-not-single-word = «{ $word }» non è una sola parola
error-pair-same = le due parole sono la stessa parola
error-pair-in-game = { $target } / { $distractor } è già nel gioco
error-pair-proposed = { $target } / { $distractor } è già stata proposta e attende una decisione
error-word-unknown = «{ $word }» non compare nelle nostre frasi in { $language }
error-feedback-length = un messaggio ha da 1 a { $max } caratteri
error-own-pseudonym = è il tuo stesso pseudonimo
error-max-friends = puoi avere fino a { $max } amici
error-not-friend = aggiungi prima { $name } come amico
error-few-challenge-items = meno di { $min } quesiti con { $k } frasi sono nuovi per entrambi; prova un altro numero di frasi
error-no-challenge = non hai questa sfida
error-no-player = nessun giocatore si chiama «{ $name }»
error-no-study = questo studio non esiste: controlla il link che ti ha dato la piattaforma
error-study-link = al link mancano gli identificativi di partecipante e di sessione della piattaforma; apri lo studio dalla piattaforma
error-study-returned = Hai restituito questo studio, o il suo tempo è scaduto, quindi i suoi item sono andati ad altri. Restituisci lo studio anche sulla piattaforma.
error-study-elsewhere = lo studio di questo partecipante è iniziato in un’altra sessione; continualo nel browser in cui è iniziato, o aprilo dalla piattaforma
error-refused = la richiesta è stata rifiutata; controlla ciò che hai inserito e riprova
error-unauthorized = prima accedi
error-forbidden = non puoi farlo
error-not-found = ciò che hai chiesto non è qui
error-no-study-under-way = non hai nessuno studio in corso
error-guess-length = una risposta è una parola da 1 a { $max } caratteri
error-internal = qualcosa è andato storto da parte nostra; riprova
error-unreachable = impossibile raggiungere il server: { $detail }

## Parole nuove
new-words-title = Parole nuove
new-words-intro = Ogni frase ha uno spazio vuoto e una parola che forse non conosci, a volte con la frase che la definisce. Quale delle due opzioni riempie lo spazio? Le frasi sono in inglese.
new-words-none = Hai risposto a tutte le frasi. Grazie!
new-words-right = Giusto: { $answer }.
new-words-wrong = Non questa volta: era { $answer }.
new-words-tally = { $n ->
    [one] { $right } giuste su { $n } frase
   *[other] { $right } giuste su { $n } frasi
}
new-words-definition = Definizione:
new-words-blank = spazio vuoto
skip-to-content = Vai al contenuto
erase-word = cancella
leaderboard-you = tu
define-cap-hint = Un turno mostra fino a 5, 10 o 20 candidati, a tua scelta: meno quando la parola ha meno simili. Più candidati, un turno più difficile.
crowd-done-title = Grazie!
crowd-code = Il tuo codice di completamento:
crowd-return-confirm = Restituire lo studio lo termina qui: le tue risposte restano, il resto dei suoi item va ad altri e non potrai ricominciarlo. Poi restituisci lo studio anche sulla piattaforma.
crowd-return-yes = Sì, restituisci lo studio
crowd-returned-title = Studio restituito
crowd-returned = Hai restituito questo studio, o il suo tempo è scaduto: le tue risposte sono conservate e le altre domande vanno ad altre persone. Restituisci lo studio anche su { $platform }, così il tuo posto passa a qualcun altro.

## Parola nascosta (cloze)
cloze-title = Parola nascosta
cloze-intro = Una parola della frase è nascosta. Scrivi la parola che secondo te c'era; poi vedrai la parola e quelle che si aspettava un modello linguistico.
cloze-none = Hai giocato tutte le frasi di questa lingua. Prova un'altra lingua.
cloze-label = La parola mancante:
cloze-submit = Rispondi
cloze-right = Giusto: «{ $word }».
cloze-wrong = Era «{ $word }» (hai scritto «{ $typed }»).
cloze-model-words = Un modello linguistico si aspettava: { $words }.
cloze-no-model-words = Nessun modello linguistico ha ancora letto questa frase.
cloze-next = Frase successiva
