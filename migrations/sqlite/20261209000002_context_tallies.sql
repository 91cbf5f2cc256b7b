-- What the item builder looked at, per language: the contexts that held a pair's target once
-- and not its distractor (reason 'examined'), and those it dropped for giving the target
-- away, by reason (model::Giveaway's codes); summed over builds.
CREATE TABLE context_tallies (
    lang TEXT NOT NULL,
    reason TEXT NOT NULL,
    contexts BIGINT NOT NULL,
    PRIMARY KEY (lang, reason)
);
