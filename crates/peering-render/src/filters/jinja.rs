//! Jinja2's own filters that the engine lacks or writes differently, as Jinja2 3.1 (and
//! MarkupSafe, Python's `str` and `urllib`) write them: `center`, `escape`,
//! `filesizeformat`, `forceescape`, `random`, `striptags`, `truncate`, `urlencode`,
//! `wordcount`, `xmlattr`.

use minijinja::value::{Value, ValueKind};
use minijinja::Error;

use super::{invalid, items};

/// MarkupSafe's escaping: `&`, `<`, `>`, `"` and `'` as entities.
pub fn markup_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&#34;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `escape`/`e`: the text escaped once (text already safe is left as it is).
pub fn escape(value: Value) -> Value {
    if value.is_safe() {
        return value;
    }
    Value::from_safe_string(markup_escape(&value.to_string()))
}

/// `forceescape`: the text escaped even when it is already safe.
pub fn forceescape(value: Value) -> Value {
    Value::from_safe_string(markup_escape(&value.to_string()))
}

/// `center(width=80)`: the text in the middle of `width` characters, as Python's
/// `str.center` pads it (the odd space on the right, unless the width is odd too).
pub fn center(value: Value, width: Option<usize>) -> String {
    let text = value.to_string();
    let width = width.unwrap_or(80);
    let length = text.chars().count();
    if width <= length {
        return text;
    }
    let margin = width - length;
    let left = margin / 2 + (margin & width & 1);
    format!("{}{text}{}", " ".repeat(left), " ".repeat(margin - left))
}

/// `filesizeformat(binary=false)`: a number of bytes for people (`1.5 kB`, `1.5 KiB`).
pub fn filesizeformat(value: Value, binary: Option<bool>) -> Result<String, Error> {
    let bytes = f64::try_from(value.clone())
        .ok()
        .or_else(|| value.as_str().and_then(|s| s.trim().parse().ok()))
        .ok_or_else(|| invalid(format!("{value} is not a number")))?;
    let binary = binary.unwrap_or(false);
    let base: f64 = if binary { 1024.0 } else { 1000.0 };
    let prefixes = if binary {
        ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"]
    } else {
        ["kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"]
    };
    if bytes == 1.0 {
        return Ok("1 Byte".into());
    }
    if bytes < base {
        return Ok(format!("{} Bytes", bytes.trunc()));
    }
    let mut unit = base;
    for prefix in prefixes {
        unit *= base;
        if bytes < unit || prefix == prefixes[prefixes.len() - 1] {
            return Ok(format!("{:.1} {prefix}", base * bytes / unit));
        }
    }
    Ok(String::new())
}

/// `random`: one item of a list (or character of a text), chosen at random.
pub fn random(value: Value) -> Result<Value, Error> {
    let choices: Vec<Value> = match value.as_str() {
        Some(text) => text.chars().map(Value::from).collect(),
        None => items(&value)?,
    };
    if choices.is_empty() {
        return Err(invalid("cannot choose from an empty sequence"));
    }
    let index = rand::Rng::gen_range(&mut rand::thread_rng(), 0..choices.len());
    Ok(choices[index].clone())
}

/// `striptags`: the text without its tags and comments, runs of white space as one space,
/// the usual entities read.
pub fn striptags(value: Value) -> String {
    let text = value.to_string();
    let mut kept = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(start) = rest.find('<') {
        kept.push_str(&rest[..start]);
        let after = &rest[start..];
        let end = if after.starts_with("<!--") {
            after.find("-->").map(|e| e + 3)
        } else {
            after.find('>').map(|e| e + 1)
        };
        match end {
            Some(end) => rest = &after[end..],
            None => {
                rest = after;
                break;
            }
        }
    }
    kept.push_str(rest);
    unescape(&kept.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The named entities HTML text most often holds, and numeric ones.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('&') {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let entity = after.find(';').map(|end| (&after[1..end], end + 1));
        let decoded = entity.and_then(|(name, len)| {
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some('\u{a0}'),
                _ => name.strip_prefix('#').and_then(|n| {
                    let code = match n.strip_prefix(['x', 'X']) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok(),
                        None => n.parse().ok(),
                    };
                    code.and_then(char::from_u32)
                }),
            };
            c.map(|c| (c, len))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &after[len..];
            }
            None => {
                out.push('&');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// `truncate(length=255, killwords=false, end='...', leeway=5)`: the text cut to `length`
/// characters, `end` included, at a space unless `killwords`; left whole when it is at most
/// `leeway` characters longer than `length`.
pub fn truncate(
    value: Value,
    length: Option<usize>,
    killwords: Option<bool>,
    end: Option<String>,
    leeway: Option<usize>,
) -> Result<String, Error> {
    let text = value.to_string();
    let length = length.unwrap_or(255);
    let end = end.unwrap_or_else(|| "...".into());
    let end_length = end.chars().count();
    if length < end_length {
        return Err(invalid(format!(
            "expected length >= {end_length}, got {length}"
        )));
    }
    if text.chars().count() <= length + leeway.unwrap_or(5) {
        return Ok(text);
    }
    let kept: String = text.chars().take(length - end_length).collect();
    let kept = match killwords.unwrap_or(false) {
        true => kept.as_str(),
        false => kept
            .rsplit_once(' ')
            .map_or(kept.as_str(), |(head, _)| head),
    };
    Ok(format!("{kept}{end}"))
}

/// Python's `urllib.parse.quote`: every byte but letters, digits, `_.-~` and `safe` as
/// `%XX`; in a query (`for_query`) nothing else is safe and a space is `+`.
fn url_quote(text: &str, for_query: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' | b'.' | b'-' | b'~' => {
                out.push(char::from(byte))
            }
            b'/' if !for_query => out.push('/'),
            b' ' if for_query => out.push('+'),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// `urlencode`: a text quoted for a URL's path, or a map (or list of pairs) as a query.
pub fn urlencode(value: Value) -> Result<String, Error> {
    let pairs: Vec<(Value, Value)> = match value.kind() {
        ValueKind::Map => items(&value)?
            .into_iter()
            .map(|k| Ok((k.clone(), value.get_item(&k)?)))
            .collect::<Result<_, Error>>()?,
        ValueKind::Seq | ValueKind::Iterable => items(&value)?
            .into_iter()
            .map(|pair| Ok((pair.get_item_by_index(0)?, pair.get_item_by_index(1)?)))
            .collect::<Result<_, Error>>()?,
        _ => return Ok(url_quote(&value.to_string(), false)),
    };
    Ok(pairs
        .iter()
        .map(|(k, v)| {
            format!(
                "{}={}",
                url_quote(&k.to_string(), true),
                url_quote(&v.to_string(), true)
            )
        })
        .collect::<Vec<_>>()
        .join("&"))
}

/// `wordcount`: how many words (runs of letters, digits and `_`) the text holds.
pub fn wordcount(value: Value) -> usize {
    let text = value.to_string();
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.split(|c: char| !word(c))
        .filter(|w| !w.is_empty())
        .count()
}

/// `xmlattr(autospace=true)`: a map as XML/HTML attributes (none and undefined values left
/// out), escaped, after a space.
pub fn xmlattr(value: Value, autospace: Option<bool>) -> Result<Value, Error> {
    let mut attributes = Vec::new();
    for key in items(&value)? {
        let attribute = value.get_item(&key)?;
        if attribute.is_none() || attribute.is_undefined() {
            continue;
        }
        let key = key.to_string();
        if key.contains(|c: char| c.is_ascii_whitespace() || matches!(c, '/' | '>' | '=')) {
            return Err(invalid(format!(
                "Invalid character in attribute name: {key:?}"
            )));
        }
        attributes.push(format!(
            "{}=\"{}\"",
            markup_escape(&key),
            markup_escape(&attribute.to_string())
        ));
    }
    let mut text = attributes.join(" ");
    if autospace.unwrap_or(true) && !text.is_empty() {
        text.insert(0, ' ');
    }
    Ok(Value::from_safe_string(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_padded_cut_and_counted_as_python_does() {
        assert_eq!(center(Value::from("ab"), Some(5)), "  ab ");
        assert_eq!(center(Value::from("ab"), Some(7)), "   ab  ");
        assert_eq!(center(Value::from("abc"), Some(6)), " abc  ");
        let cut = |text: &str, length, kill| {
            truncate(Value::from(text), Some(length), Some(kill), None, None).expect("cut")
        };
        assert_eq!(cut("hello world foo", 9, false), "hello...");
        assert_eq!(cut("hello world foo", 9, true), "hello ...");
        assert_eq!(cut("hello world", 9, false), "hello world");
        assert_eq!(wordcount(Value::from("a b-c d_e, 12")), 5);
    }

    #[test]
    fn sizes_markup_and_urls_are_written_as_jinja2_writes_them() {
        let size = |n: f64, binary| filesizeformat(Value::from(n), Some(binary)).expect("size");
        assert_eq!(size(1.0, false), "1 Byte");
        assert_eq!(size(999.0, false), "999 Bytes");
        assert_eq!(size(1500.0, false), "1.5 kB");
        assert_eq!(size(1536.0, true), "1.5 KiB");
        assert_eq!(size(3e9, false), "3.0 GB");
        assert_eq!(
            striptags(Value::from("<p>a &amp; <!-- x --> b</p>\n\t c")),
            "a & b c"
        );
        assert_eq!(
            urlencode(Value::from("a b/c~é")).expect("url"),
            "a%20b/c~%C3%A9"
        );
    }
}
