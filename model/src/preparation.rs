//! The demo's model data: after a first start loads the demo, the server runs the
//! default English model over it in the background, one step after another, so that
//! every mode has its material. While a step is pending, the pages its material
//! feeds say so instead of "nothing left".

/// One step of the demo's model preparation, in the order they run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Preparation {
    /// The main game's items scored (Eq. 2): the model on the leaderboard.
    Scores,
    /// Single-sentence items selected by the model's scores, for rating.
    Rating,
    /// The model's next-word suggestions, for the next-word game's easier mode.
    NextWords,
    /// Word-definition groups scored.
    Definitions,
    /// Invented-word items judged.
    NewWords,
}

/// The language the demo's model data is prepared in (the default model is English).
pub const PREPARED_LANGUAGE: &str = "en";

impl Preparation {
    /// Every step, in the order they run.
    pub const ALL: [Preparation; 5] =
        [Preparation::Scores, Preparation::Rating, Preparation::NextWords, Preparation::Definitions, Preparation::NewWords];

    /// The step's bit in the stored set of pending steps.
    pub fn bit(self) -> i64 {
        1 << (self as i64)
    }

    /// The set of every step.
    pub fn all_bits() -> i64 {
        Preparation::ALL.iter().fold(0, |bits, step| bits | step.bit())
    }

    /// The step's name in logs and requests.
    pub fn code(self) -> &'static str {
        match self {
            Preparation::Scores => "scores",
            Preparation::Rating => "rating",
            Preparation::NextWords => "next-words",
            Preparation::Definitions => "definitions",
            Preparation::NewWords => "new-words",
        }
    }

    /// The step named `code`.
    pub fn parse(code: &str) -> Option<Preparation> {
        Preparation::ALL.into_iter().find(|step| step.code() == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_step_has_its_own_bit_and_code() {
        let bits: Vec<i64> = Preparation::ALL.iter().map(|s| s.bit()).collect();
        assert_eq!(bits, [1, 2, 4, 8, 16]);
        assert_eq!(Preparation::all_bits(), 31);
        for step in Preparation::ALL {
            assert_eq!(Preparation::parse(step.code()), Some(step));
        }
        assert_eq!(Preparation::parse("nothing"), None);
    }
}
