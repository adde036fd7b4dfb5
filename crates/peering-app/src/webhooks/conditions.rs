//! A webhook's conditions, with the reference's semantics (`extras/conditions.py`): a set
//! of rules joined by `and` or `or`, nested at will; each rule compares the value at a
//! dotted path of the object (`status.value`; through a list, the values of its items)
//! with `eq`, `gt`, `gte`, `lt`, `lte`, `in`, `contains` or `regex`, optionally negated.
//! Values compare as Python compares them (`1 == 1.0 == true`); a comparison Python
//! refuses (`null > 3`, `contains` on a number) is an error of the delivery, as it fails
//! the reference's job. Conditions are checked when a webhook is written ([`parse`]).

use std::borrow::Cow;
use std::cmp::Ordering;

use serde_json::{Map, Value as Json};

static NULL: Json = Json::Null;

/// How deeply condition sets may nest.
const MAX_DEPTH: usize = 32;

const OPERATORS: &str = "eq, gt, gte, lt, lte, in, contains, regex";

/// Rules joined by `and` (all hold) or `or` (one holds).
#[derive(Debug, Clone)]
pub struct ConditionSet {
    any: bool,
    rules: Vec<Rule>,
}

#[derive(Debug, Clone)]
enum Rule {
    Set(ConditionSet),
    Condition(Condition),
}

#[derive(Debug, Clone)]
struct Condition {
    path: Vec<String>,
    value: Json,
    op: Op,
    negate: bool,
    /// The `regex` operation's pattern, anchored at the start as Python's `re.match`.
    regex: Option<regex::Regex>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Gt,
    Gte,
    Lt,
    Lte,
    In,
    Contains,
    Regex,
}

/// A webhook's conditions as stored; `None` when there are none (`null`, or any value
/// Python finds false: `{}`, `[]`, `""`, `0`), which always match. The error says what
/// is wrong, as the reference's validation does.
pub fn parse(conditions: &Json) -> Result<Option<ConditionSet>, String> {
    if !truthy(conditions) {
        return Ok(None);
    }
    ConditionSet::parse(conditions, 0).map(Some)
}

impl ConditionSet {
    fn parse(ruleset: &Json, depth: usize) -> Result<ConditionSet, String> {
        if depth > MAX_DEPTH {
            return Err(format!("Condition sets nest at most {MAX_DEPTH} deep."));
        }
        let Json::Object(map) = ruleset else {
            return Err(format!(
                "Ruleset must be a dictionary, not {}.",
                type_name(ruleset)
            ));
        };
        if map.len() != 1 {
            return Err(format!(
                "Ruleset must have exactly one logical operator (found {})",
                map.len()
            ));
        }
        let (logic, rules) = map.iter().next().ok_or("Ruleset is empty")?;
        if logic != "and" && logic != "or" {
            return Err(format!(
                "Invalid logic type: {logic} (must be 'and' or 'or')"
            ));
        }
        let Json::Array(rules) = rules else {
            return Err(format!("The rules of '{logic}' must be a list."));
        };
        let rules = rules
            .iter()
            .map(|rule| {
                if is_ruleset(rule) {
                    ConditionSet::parse(rule, depth + 1).map(Rule::Set)
                } else {
                    Condition::parse(rule).map(Rule::Condition)
                }
            })
            .collect::<Result<_, _>>()?;
        Ok(ConditionSet {
            any: logic == "or",
            rules,
        })
    }

    /// Whether `data` (the object as the API shows it) meets the conditions.
    pub fn eval(&self, data: &Json) -> Result<bool, String> {
        for rule in &self.rules {
            let met = match rule {
                Rule::Set(set) => set.eval(data)?,
                Rule::Condition(condition) => condition.eval(data)?,
            };
            // `any` and `all` stop at the first answer, as Python's do.
            if met == self.any {
                return Ok(met);
            }
        }
        Ok(!self.any)
    }
}

/// A one-key object whose key is `and` or `or`.
fn is_ruleset(rule: &Json) -> bool {
    matches!(rule, Json::Object(map) if map.len() == 1
        && map.keys().all(|k| k == "and" || k == "or"))
}

impl Condition {
    fn parse(rule: &Json) -> Result<Condition, String> {
        let Json::Object(map) = rule else {
            return Err(format!(
                "A condition must be a dictionary, not {}.",
                type_name(rule)
            ));
        };
        if let Some(key) = map
            .keys()
            .find(|k| !matches!(k.as_str(), "attr" | "value" | "op" | "negate"))
        {
            return Err(format!("Unknown key in a condition: {key}"));
        }
        let Some(Json::String(attr)) = map.get("attr") else {
            return Err("A condition needs an attr, the name of a key of the data.".into());
        };
        let Some(value) = map.get("value") else {
            return Err(format!("The condition on {attr} needs a value."));
        };
        let op = operator(map)?;
        check_type(op, value)?;
        let regex = match (op, value) {
            (Op::Regex, Json::String(pattern)) => Some(anchored(pattern)?),
            _ => None,
        };
        Ok(Condition {
            path: attr.split('.').map(str::to_string).collect(),
            value: value.clone(),
            op,
            negate: map.get("negate").is_some_and(truthy),
            regex,
        })
    }

    fn eval(&self, data: &Json) -> Result<bool, String> {
        let found = lookup(data, &self.path);
        let met = match self.op {
            Op::Eq => py_eq(&found, &self.value),
            Op::Gt => compare(&found, &self.value, ">")? == Ordering::Greater,
            Op::Gte => compare(&found, &self.value, ">=")? != Ordering::Less,
            Op::Lt => compare(&found, &self.value, "<")? == Ordering::Less,
            Op::Lte => compare(&found, &self.value, "<=")? != Ordering::Greater,
            Op::In => match &self.value {
                Json::Array(items) => items.iter().any(|item| py_eq(item, &found)),
                _ => false,
            },
            Op::Contains => contains(&found, &self.value)?,
            Op::Regex => match (&*found, &self.regex) {
                (Json::String(text), Some(regex)) => regex.is_match(text),
                (other, _) => {
                    return Err(format!(
                        "expected string or bytes-like object, got '{}' at {}",
                        type_name(other),
                        self.path.join(".")
                    ))
                }
            },
        };
        Ok(met != self.negate)
    }
}

fn operator(map: &Map<String, Json>) -> Result<Op, String> {
    let op = match map.get("op") {
        None => return Ok(Op::Eq),
        Some(Json::String(op)) => op.as_str(),
        Some(other) => {
            return Err(format!(
                "Unknown operator: {other}. Must be one of: {OPERATORS}"
            ))
        }
    };
    Ok(match op {
        "eq" => Op::Eq,
        "gt" => Op::Gt,
        "gte" => Op::Gte,
        "lt" => Op::Lt,
        "lte" => Op::Lte,
        "in" => Op::In,
        "contains" => Op::Contains,
        "regex" => Op::Regex,
        other => {
            return Err(format!(
                "Unknown operator: {other}. Must be one of: {OPERATORS}"
            ))
        }
    })
}

/// The operations each type of value allows, as the reference's `Condition.TYPES`.
fn check_type(op: Op, value: &Json) -> Result<(), String> {
    use Op::*;
    let allowed: &[Op] = match value {
        Json::String(_) => &[Eq, Contains, Regex],
        Json::Bool(_) => &[Eq, Contains],
        Json::Number(_) => &[Eq, Gt, Gte, Lt, Lte, Contains],
        Json::Array(_) => &[Eq, In, Contains],
        Json::Null => &[Eq],
        Json::Object(_) => return Err("Unsupported value type: dict".into()),
    };
    if allowed.contains(&op) {
        Ok(())
    } else {
        Err(format!(
            "Invalid type for {} operation: {}",
            op_name(op),
            type_name(value)
        ))
    }
}

fn op_name(op: Op) -> &'static str {
    match op {
        Op::Eq => "eq",
        Op::Gt => "gt",
        Op::Gte => "gte",
        Op::Lt => "lt",
        Op::Lte => "lte",
        Op::In => "in",
        Op::Contains => "contains",
        Op::Regex => "regex",
    }
}

/// The pattern matched at the start of the text only, as `re.match` does; a pattern the
/// engine refuses (look-arounds, back-references) is refused here.
fn anchored(pattern: &str) -> Result<regex::Regex, String> {
    regex::RegexBuilder::new(&format!("^(?:{pattern})"))
        .size_limit(1 << 20)
        .build()
        .map_err(|e| format!("Invalid regular expression {pattern:?}: {e}"))
}

/// The value at a dotted path: through an object, its key's value (`null` if missing);
/// through a list, the list of its items' values; anything else ends in `null` (the
/// reference's `TypeError`, caught).
fn lookup<'a>(data: &'a Json, path: &[String]) -> Cow<'a, Json> {
    let mut value = Cow::Borrowed(data);
    for key in path {
        value = match value {
            Cow::Borrowed(Json::Object(map)) => Cow::Borrowed(map.get(key).unwrap_or(&NULL)),
            Cow::Owned(Json::Object(mut map)) => Cow::Owned(map.remove(key).unwrap_or(Json::Null)),
            Cow::Borrowed(Json::Array(items)) => match items_at(items.iter(), key) {
                Some(list) => Cow::Owned(list),
                None => return Cow::Owned(Json::Null),
            },
            Cow::Owned(Json::Array(items)) => match items_at(items.iter(), key) {
                Some(list) => Cow::Owned(list),
                None => return Cow::Owned(Json::Null),
            },
            _ => return Cow::Owned(Json::Null),
        };
    }
    value
}

/// The values of `key` in each item, if every item is an object.
fn items_at<'a>(items: impl Iterator<Item = &'a Json>, key: &str) -> Option<Json> {
    items
        .map(|item| match item {
            Json::Object(map) => Some(map.get(key).cloned().unwrap_or(Json::Null)),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()
        .map(Json::Array)
}

/// A number as Python sees it (`true` is 1): exact when whole.
#[derive(Debug, Clone, Copy)]
enum Number {
    Int(i128),
    Float(f64),
}

fn number(value: &Json) -> Option<Number> {
    match value {
        Json::Bool(b) => Some(Number::Int(i128::from(*b))),
        Json::Number(n) => Some(match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Number::Int(i128::from(i)),
            (None, Some(u)) => Number::Int(i128::from(u)),
            _ => Number::Float(n.as_f64().unwrap_or(f64::NAN)),
        }),
        _ => None,
    }
}

fn number_order(a: Number, b: Number) -> Option<Ordering> {
    match (a, b) {
        (Number::Int(a), Number::Int(b)) => Some(a.cmp(&b)),
        (Number::Int(a), Number::Float(b)) => (a as f64).partial_cmp(&b),
        (Number::Float(a), Number::Int(b)) => a.partial_cmp(&(b as f64)),
        (Number::Float(a), Number::Float(b)) => a.partial_cmp(&b),
    }
}

/// Python's `==` on JSON values.
fn py_eq(a: &Json, b: &Json) -> bool {
    if let (Some(a), Some(b)) = (number(a), number(b)) {
        return number_order(a, b) == Some(Ordering::Equal);
    }
    match (a, b) {
        (Json::Null, Json::Null) => true,
        (Json::String(a), Json::String(b)) => a == b,
        (Json::Array(a), Json::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| py_eq(a, b))
        }
        (Json::Object(a), Json::Object(b)) => {
            a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| py_eq(v, w)))
        }
        _ => false,
    }
}

/// Python's ordering of a found value against a condition's number; an error where
/// Python refuses to compare.
fn compare(found: &Json, value: &Json, symbol: &str) -> Result<Ordering, String> {
    match (number(found), number(value)) {
        (Some(a), Some(b)) => {
            number_order(a, b).ok_or_else(|| format!("'{symbol}' cannot order {found} and {value}"))
        }
        _ => Err(format!(
            "'{symbol}' not supported between instances of '{}' and '{}'",
            type_name(found),
            type_name(value)
        )),
    }
}

/// Python's `value in found`.
fn contains(found: &Json, value: &Json) -> Result<bool, String> {
    match (found, value) {
        (Json::String(text), Json::String(part)) => Ok(text.contains(part.as_str())),
        (Json::String(_), other) => Err(format!(
            "'in <string>' requires string as left operand, not {}",
            type_name(other)
        )),
        (Json::Array(items), _) => Ok(items.iter().any(|item| py_eq(item, value))),
        (Json::Object(_), Json::Array(_)) => Err("unhashable type: 'list'".into()),
        (Json::Object(map), Json::String(key)) => Ok(map.contains_key(key)),
        // Keys of JSON objects are strings: no number or boolean is one.
        (Json::Object(_), _) => Ok(false),
        (other, _) => Err(format!(
            "argument of type '{}' is not iterable",
            type_name(other)
        )),
    }
}

/// Python's truth of a JSON value.
fn truthy(value: &Json) -> bool {
    match value {
        Json::Null => false,
        Json::Bool(b) => *b,
        Json::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Json::String(s) => !s.is_empty(),
        Json::Array(a) => !a.is_empty(),
        Json::Object(o) => !o.is_empty(),
    }
}

/// The Python type a JSON value becomes, for messages.
fn type_name(value: &Json) -> &'static str {
    match value {
        Json::Null => "NoneType",
        Json::Bool(_) => "bool",
        Json::Number(n) if n.is_f64() => "float",
        Json::Number(_) => "int",
        Json::String(_) => "str",
        Json::Array(_) => "list",
        Json::Object(_) => "dict",
    }
}

#[cfg(test)]
mod tests;
