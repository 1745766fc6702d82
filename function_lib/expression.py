"""Safe filter/calculator expressions on a DataFrame: a small parser and pandas evaluation, never eval().

Syntax (QGIS/SQL-like; Python spellings accepted), case-insensitive keywords:
  fields      population, "name with spaces", "type"   (double quotes = a field name)
  literals    100000, 3.5, 'PA' (single quotes = text), TRUE, FALSE, NULL (also True/False/None)
  compare     =  ==  !=  <>  <  <=  >  >=
  logic       AND  OR  NOT   (also and / or / not)
  text        name LIKE 'A%'  (% any run, _ one char), ILIKE (case-insensitive), NOT LIKE
  sets        state IN ('PA', 'NY')   or   state in ['PA', 'NY'],   NOT IN
  nulls       name IS NULL,  name IS NOT NULL
  ranges      pop BETWEEN 1000 AND 5000,  NOT BETWEEN
  arithmetic  + - * / %  and  ||  (text concatenation), parentheses
  functions   lower(x) upper(x) length(x) abs(x) round(x[, n]) coalesce(a, b)
  geometry    $area  $length  $x  $y   (in the layer's CRS units)
A text field compared with a number literal is compared numerically ('12' > 5 is true).
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..errors import ValidationError
from .context import did_you_mean

KEYWORDS = {"and", "or", "not", "like", "ilike", "in", "is", "null", "none", "true", "false", "between"}
FUNCTIONS = {"lower", "upper", "length", "len", "abs", "round", "coalesce"}
GEOMETRY_VARS = {"$area", "$length", "$x", "$y"}
ARITHMETIC = dict(add=operator.add, sub=operator.sub, mul=operator.mul, div=operator.truediv, mod=operator.mod)
_MIRROR = {"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}
COMPARE_OPS = {"=": "eq", "==": "eq", "!=": "ne", "<>": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}

_TOKEN = re.compile(
    r"""\s*(?:
    (?P<number>\d+\.\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|\d+(?:[eE][-+]?\d+)?)
    |(?P<string>'(?:[^']|'')*')
    |(?P<qname>"(?:[^"]|"")*")
    |(?P<geovar>\$[A-Za-z]+)
    |(?P<name>[A-Za-z_\u00C0-\uFFFF][\w\u00C0-\uFFFF]*)
    |(?P<op><=|>=|<>|!=|==|\|\||[=<>+\-*/%(),\[\]])
    )""",
    re.VERBOSE,
)

HELP = "Use fields, quoted 'text', numbers, = != < > AND OR NOT LIKE IN IS NULL BETWEEN and + - * /."


@dataclass
class Token:
    kind: str  # number, string, qname, geovar, name, op, end
    text: str
    pos: int


def tokenize(text: str) -> list[Token]:
    """Split an expression into tokens; anything outside the grammar is refused."""
    tokens, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if not match or match.end() == pos:
            bad = text[pos:].strip()[:20]
            raise ValidationError(f"Cannot read the expression at '{bad}'.", fix=HELP)
        kind = match.lastgroup
        tokens.append(Token(kind, match.group(kind), match.start(kind)))
        pos = match.end()
    tokens.append(Token("end", "", len(text)))
    return tokens


# -- syntax tree -----------------------------------------------------------------------------
@dataclass
class Node:
    op: str
    args: tuple = ()
    value: Any = None


class Parser:
    """Recursive descent: or > and > not > comparison > additive > multiplicative > unary > primary."""

    def __init__(self, text: str):
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0

    def peek(self) -> Token:
        return self.tokens[self.i]

    def word(self) -> str:
        tok = self.peek()
        return tok.text.lower() if tok.kind == "name" else ""

    def take(self) -> Token:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def expect(self, text: str) -> None:
        tok = self.take()
        if tok.text.lower() != text:
            raise ValidationError(f"Expected '{text}' at position {tok.pos} in '{self.text}'.", fix=HELP)

    def parse(self) -> Node:
        if self.peek().kind == "end":
            raise ValidationError("The expression is empty.", fix=HELP)
        node = self.or_expr()
        if self.peek().kind != "end":
            tok = self.peek()
            raise ValidationError(f"Unexpected '{tok.text}' at position {tok.pos} in '{self.text}'.", fix=HELP)
        return node

    def chain(self, operand, ops: dict) -> Node:
        """Left-associative binary operators: operand (op operand)*."""
        node = operand()
        while self.peek().kind in ("name", "op") and self.peek().text.lower() in ops:
            node = Node(ops[self.take().text.lower()], (node, operand()))
        return node

    def or_expr(self) -> Node:
        return self.chain(self.and_expr, {"or": "or"})

    def and_expr(self) -> Node:
        return self.chain(self.not_expr, {"and": "and"})

    def not_expr(self) -> Node:
        if self.word() == "not":
            self.take()
            return Node("not", (self.not_expr(),))
        return self.comparison()

    def comparison(self) -> Node:
        left = self.additive()
        tok = self.peek()
        if tok.kind == "op" and tok.text in COMPARE_OPS:
            self.take()
            return Node(COMPARE_OPS[tok.text], (left, self.additive()))
        negate = False
        if self.word() == "not" and self.tokens[self.i + 1].text.lower() in ("like", "ilike", "in", "between"):
            self.take()
            negate = True
        word = self.word()
        if word in ("like", "ilike"):
            self.take()
            pattern = self.additive()
            node = Node(word, (left, pattern))
        elif word == "in":
            self.take()
            node = Node("in", (left,), value=self.value_list())
        elif word == "between":
            self.take()
            low = self.additive()
            self.expect("and")
            node = Node("between", (left, low, self.additive()))
        elif word == "is" and not negate:
            self.take()
            if self.word() == "not":
                self.take()
                negate = True
            if self.word() not in ("null", "none"):
                raise ValidationError("IS must be followed by NULL or NOT NULL.", fix=HELP)
            self.take()
            node = Node("isnull", (left,))
        else:
            return left
        return Node("not", (node,)) if negate else node

    def value_list(self) -> list:
        opener = self.take().text
        if opener not in ("(", "["):
            raise ValidationError("IN must be followed by a list in parentheses, like IN ('a', 'b').", fix=HELP)
        closer = ")" if opener == "(" else "]"
        values = []
        while True:
            node = self.unary()
            if node.op != "lit":
                raise ValidationError("IN lists may only hold numbers and quoted text.", fix=HELP)
            values.append(node.value)
            tok = self.take()
            if tok.text == closer:
                return values
            if tok.text != ",":
                raise ValidationError(f"Expected ',' or '{closer}' in the IN list of '{self.text}'.", fix=HELP)

    def additive(self) -> Node:
        return self.chain(self.multiplicative, {"+": "add", "-": "sub", "||": "concat"})

    def multiplicative(self) -> Node:
        return self.chain(self.unary, {"*": "mul", "/": "div", "%": "mod"})

    def unary(self) -> Node:
        tok = self.peek()
        if tok.kind == "op" and tok.text in ("-", "+"):
            self.take()
            inner = self.unary()
            if tok.text == "+":
                return inner
            if inner.op == "lit" and isinstance(inner.value, (int, float)):
                return Node("lit", value=-inner.value)
            return Node("neg", (inner,))
        return self.primary()

    def primary(self) -> Node:
        tok = self.take()
        if tok.kind == "number":
            number = float(tok.text)
            return Node("lit", value=int(number) if re.fullmatch(r"\d+", tok.text) else number)
        if tok.kind == "string":
            return Node("lit", value=tok.text[1:-1].replace("''", "'"))
        if tok.kind == "qname":
            return Node("qname", value=tok.text[1:-1].replace('""', '"'))
        if tok.kind == "geovar":
            if tok.text.lower() not in GEOMETRY_VARS:
                raise ValidationError(f"Unknown variable '{tok.text}'.", fix="Use $area, $length, $x or $y.")
            return Node("geovar", value=tok.text.lower())
        if tok.kind == "op" and tok.text == "(":
            node = self.or_expr()
            self.expect(")")
            return node
        if tok.kind == "name":
            low = tok.text.lower()
            if low in ("true", "false"):
                return Node("lit", value=low == "true")
            if low in ("null", "none"):
                return Node("lit", value=None)
            if self.peek().text == "(":
                return self.call(tok)
            if low in KEYWORDS:
                raise ValidationError(f"'{tok.text}' cannot stand here in '{self.text}'.", fix=HELP)
            return Node("field", value=tok.text)
        where = f"'{tok.text}' at position {tok.pos}" if tok.kind != "end" else "end of expression"
        raise ValidationError(f"Unexpected {where} in '{self.text}'.", fix=HELP)

    def call(self, tok: Token) -> Node:
        name = tok.text.lower()
        if name not in FUNCTIONS:
            raise ValidationError(
                f"'{tok.text}' is not an allowed function in filter expressions.",
                fix="Allowed functions: " + ", ".join(sorted(FUNCTIONS)) + ".",
            )
        self.expect("(")
        args = []
        if self.peek().text != ")":
            args.append(self.or_expr())
            while self.peek().text == ",":
                self.take()
                args.append(self.or_expr())
        self.expect(")")
        return Node("call", tuple(args), value=name)


def parse(text: str) -> Node:
    """Parse an expression into a tree (raises ValidationError with a hint on bad syntax)."""
    if not isinstance(text, str):
        raise ValidationError("The expression must be text.", fix=HELP)
    return Parser(text).parse()


# -- evaluation ------------------------------------------------------------------------------
class Evaluator:
    """Evaluate a tree on a DataFrame with vectorized pandas operations."""

    def __init__(self, df):
        self.df = df
        self.columns = [c for c in df.columns if c != getattr(df, "_geometry_column_name", None)]

    def field(self, name: str):
        if name in self.df.columns:
            return self.df[name]
        folded = {str(c).lower(): c for c in self.columns}
        if name.lower() in folded:
            return self.df[folded[name.lower()]]
        raise ValidationError(
            f"The expression uses an unknown field '{name}'.",
            fix=did_you_mean(name, [str(c) for c in self.columns], "Fields: " + ", ".join(map(str, self.columns))),
        )

    def has_field(self, name: str) -> bool:
        return name.lower() in {str(c).lower() for c in self.df.columns}

    def value(self, node: Node, other: Node | None = None):
        if node.op == "lit":
            return node.value
        if node.op == "field":
            return self.field(node.value)
        if node.op == "qname":
            # "x" is a field in QGIS syntax; in Python style it is text when compared with a field.
            if not self.has_field(node.value) and other is not None and other.op in ("field", "qname"):
                return node.value
            return self.field(node.value)
        if node.op == "geovar":
            return self.geometry_var(node.value)
        if node.op in _MIRROR:
            return self.compare(node, node.op)
        if node.op in ARITHMETIC:
            return self.arith(node, ARITHMETIC[node.op])
        handler = getattr(self, "op_" + node.op, None)
        if handler is None:
            raise ValidationError(f"Unsupported operation '{node.op}'.", fix=HELP)
        return handler(node)

    def geometry_var(self, name: str):
        geo = getattr(self.df, "geometry", None)
        if geo is None or not hasattr(geo, "area"):
            raise ValidationError(f"{name} needs a layer with geometries.")
        if name in ("$area", "$length"):
            return geo.area if name == "$area" else geo.length
        return geo.centroid.x if name == "$x" else geo.centroid.y

    # comparisons
    def compare(self, node: Node, op: str):
        left_node, right_node = node.args
        left = self.value(left_node, right_node)
        right = self.value(right_node, left_node)
        left, right = _coerce_pair(left, right)
        if left is None or right is None:
            # SQL semantics: a comparison with NULL is never true (use IS NULL instead).
            return pd.Series(False, index=self.df.index)
        result = getattr(left, f"__{op}__")(right)
        if result is NotImplemented:
            result = getattr(right, f"__{_MIRROR[op]}__")(left)
        if op == "ne":
            result = result & _notna(left) & _notna(right)
        return _fill_false(result)

    def op_and(self, node):
        return _boolean(self.value(node.args[0])) & _boolean(self.value(node.args[1]))

    def op_or(self, node):
        return _boolean(self.value(node.args[0])) | _boolean(self.value(node.args[1]))

    def op_not(self, node):
        return ~_boolean(self.value(node.args[0]))

    def op_like(self, node, flags=0):
        series = self.value(node.args[0])
        pattern = self.value(node.args[1])
        if not isinstance(pattern, str):
            raise ValidationError("LIKE needs a quoted text pattern, like name LIKE 'A%'.", fix=HELP)
        regex = "".join(".*" if ch == "%" else "." if ch == "_" else re.escape(ch) for ch in pattern)
        if not isinstance(series, pd.Series):
            return bool(re.fullmatch(regex, str(series), flags=flags | re.DOTALL))
        text = series.astype("string")
        return text.str.fullmatch(regex, flags=flags | re.DOTALL).fillna(False).astype(bool)

    def op_ilike(self, node):
        return self.op_like(node, flags=re.IGNORECASE)

    def op_in(self, node):
        series = self.value(node.args[0])
        values = node.value
        if not isinstance(series, pd.Series):
            return series in values
        numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
        mask = series.isin(values)
        if numbers and not pd.api.types.is_numeric_dtype(series):
            mask |= pd.to_numeric(series, errors="coerce").isin(numbers)
        elif pd.api.types.is_numeric_dtype(series):
            texts = [v for v in values if isinstance(v, str)]
            if texts:
                mask |= series.isin(pd.to_numeric(pd.Series(texts), errors="coerce").dropna().tolist())
        return mask.fillna(False).astype(bool)

    def op_between(self, node):
        low_high = Node("and", (Node("ge", (node.args[0], node.args[1])), Node("le", (node.args[0], node.args[2]))))
        return self.value(low_high)

    def op_isnull(self, node):
        value = self.value(node.args[0])
        if isinstance(value, pd.Series):
            return value.isna()
        return value is None

    # arithmetic
    def arith(self, node, op):
        left, right = _coerce_pair(self.value(node.args[0]), self.value(node.args[1]), numeric=True)
        if left is None or right is None:
            return None
        return op(left, right)

    def op_neg(self, node):
        value = _numeric(self.value(node.args[0]))
        return None if value is None else -value

    def op_concat(self, node):
        parts = [self.value(a) for a in node.args]
        parts = [p.astype("string") if isinstance(p, pd.Series) else ("" if p is None else str(p)) for p in parts]
        return parts[0] + parts[1]

    def op_call(self, node):
        args = [self.value(a) for a in node.args]
        name = node.value
        want = {"coalesce": None, "round": (1, 2)}.get(name, (1, 1))
        if want and not want[0] <= len(args) <= want[1]:
            raise ValidationError(f"{name}() takes {want[0]} argument(s), got {len(args)}.", fix=HELP)
        first = args[0] if args else None
        if name in ("lower", "upper", "length", "len"):
            text = first.astype("string") if isinstance(first, pd.Series) else pd.Series([first], dtype="string")
            result = text.str.len() if name in ("length", "len") else getattr(text.str, name)()
            return result if isinstance(first, pd.Series) else (None if first is None else result.iloc[0])
        if name == "abs":
            return abs(_numeric(first))
        if name == "round":
            digits = int(args[1]) if len(args) > 1 else 0
            value = _numeric(first)
            return value.round(digits) if isinstance(value, pd.Series) else round(value, digits)
        result = args[0]
        for other in args[1:]:
            result = result.fillna(other) if isinstance(result, pd.Series) else (other if result is None else result)
        return result


def _numeric(value):
    if isinstance(value, pd.Series) and not pd.api.types.is_numeric_dtype(value):
        return pd.to_numeric(value, errors="coerce")
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError as exc:
            raise ValidationError(f"'{value}' is not a number.", fix=HELP) from exc
    return value


def _coerce_pair(left, right, numeric: bool = False):
    """Text fields meet number literals as numbers (a field of '12' compares with 5 numerically)."""
    if numeric:
        return _numeric(left), _numeric(right)
    for a, b in ((left, right), (right, left)):
        if isinstance(a, pd.Series) and not pd.api.types.is_numeric_dtype(a) and not pd.api.types.is_bool_dtype(a):
            if (isinstance(b, (int, float)) and not isinstance(b, bool)) or (
                isinstance(b, pd.Series) and pd.api.types.is_numeric_dtype(b)
            ):
                converted = pd.to_numeric(a, errors="coerce")
                return (converted, b) if a is left else (b, converted)
    for series, literal, swapped in ((left, right, False), (right, left, True)):
        if isinstance(series, pd.Series) and pd.api.types.is_numeric_dtype(series) and isinstance(literal, str):
            # A number written as text ('5') compares as a number; other text compares as text.
            try:
                literal = float(literal)
            except ValueError:
                series = series.astype("string")
            return (literal, series) if swapped else (series, literal)
    return left, right


def _boolean(value):
    if isinstance(value, pd.Series):
        if pd.api.types.is_bool_dtype(value):
            return value.fillna(False).astype(bool)
        if pd.api.types.is_numeric_dtype(value):
            return (value.fillna(0) != 0).astype(bool)
        raise ValidationError("A text field cannot be used as a condition on its own.", fix="Compare it: name = 'x'.")
    return bool(value)


def _fill_false(result):
    if isinstance(result, pd.Series):
        return result.fillna(False).astype(bool)
    return bool(result)


def _notna(value):
    return value.notna() if isinstance(value, pd.Series) else value is not None


def evaluate(text: str, df):
    """The value of an expression on every row of df: a Series, or a scalar for a constant."""
    return Evaluator(df).value(parse(text))


def filter_mask(text: str, df):
    """A boolean Series selecting the rows of df where the expression is true."""
    result = evaluate(text, df)
    if not isinstance(result, pd.Series):
        return pd.Series(bool(result), index=df.index)
    if not pd.api.types.is_bool_dtype(result):
        raise ValidationError(
            f"'{text}' gives values, not a true/false condition.",
            fix="Compare with something, e.g. population > 100000.",
        )
    return result.fillna(False).astype(bool)


def fields_used(text: str) -> list[str]:
    """The field names an expression refers to (for validation and the router's plan checks)."""
    found: list[str] = []

    def walk(node: Node) -> None:
        if node.op in ("field", "qname") and node.value not in found:
            found.append(node.value)
        for child in node.args:
            walk(child)

    walk(parse(text))
    return found
