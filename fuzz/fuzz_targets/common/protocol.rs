//! What every answer of a playtest page's engine must be, whatever the page sent: JSON with
//! exactly one of `ok` and `error`, an error carrying a message; and a request that fails
//! changes nothing (the game the page shows stays the one the engine holds).

use serde_json::Value;

/// The answer, read and held to the protocol's shape: `Ok(ok)` or `Err(error)`.
pub fn read(answer: &str) -> Result<Value, Value> {
    let value: Value = serde_json::from_str(answer)
        .unwrap_or_else(|e| panic!("an answer that is not JSON ({e}): {answer:.200}"));
    let object = value.as_object().expect("an answer is an object");
    match (object.get("ok"), object.get("error")) {
        (Some(ok), None) if object.len() == 1 => Ok(ok.clone()),
        (None, Some(error)) if object.len() == 1 => {
            let message = error["message"].as_str().expect("an error has a message");
            assert!(!message.is_empty(), "an empty error message");
            Err(error.clone())
        }
        _ => panic!("an answer with neither or both of ok and error: {answer:.200}"),
    }
}

/// A saved text with some of its bytes changed and cut at `cut` (if it is shorter): a log
/// as a careless hand or an attacker hands it back. Invalid UTF-8 is replaced, as a page
/// reading a file as text does.
pub fn tampered(text: &str, cut: u16, flips: &[(u16, u8)]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    if !bytes.is_empty() {
        for (at, byte) in flips {
            let at = usize::from(*at) % bytes.len();
            bytes[at] = *byte;
        }
    }
    if usize::from(cut) < bytes.len() && cut != 0 {
        bytes.truncate(usize::from(cut));
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A seed from the input's own bytes' worth: spread so that nearby numbers differ.
pub fn spread(n: u64) -> u64 {
    n.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}
