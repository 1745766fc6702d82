"""Numbers held in text fields: read as numbers when they are plain numbers, never when they are codes."""

from __future__ import annotations

from ...errors import ValidationError

CODE_PATTERN = r"^[+-]?0\d"  # zero-padded: a FIPS, IBGE or postal code, not a quantity


def is_text(series) -> bool:
    import pandas as pd

    return series.dtype == object or pd.api.types.is_string_dtype(series)


def text_number_kind(series) -> str:
    """'numbers' when every filled value of a text series is a plain number, 'codes' when they are numbers
    written with leading zeros (01003), 'text' otherwise."""
    import pandas as pd

    text = series.dropna().astype(str).str.strip()
    text = text[text != ""]
    if text.empty or pd.to_numeric(text, errors="coerce").isna().any():
        return "text"
    return "codes" if text.str.contains(CODE_PATTERN, regex=True).any() else "numbers"


def numeric_values(series, field: str, agg: str, note=None):
    """The series as numbers for a sum or mean: numeric fields as they are, text holding plain numbers cast
    (and noted), text codes and words refused with the reason."""
    import pandas as pd

    if is_text(series):
        kind = text_number_kind(series)
        refuse_codes(series, field, agg, kind)
        if kind == "text":
            raise ValidationError(
                f"Field '{field}' is a text field and has no numbers, so {agg} cannot be computed.",
                fix="Use agg=count, first, min or max, or a numeric field.",
            )
        if note is not None:
            note(f"'{field}' is a text field; its values were read as numbers.")
    values = pd.to_numeric(series, errors="coerce")
    if values.notna().sum() == 0:
        raise ValidationError(f"Field '{field}' has no numbers, so {agg} cannot be computed.",
                              fix="Use agg=count, first, min or max, or a numeric field.")
    return values


def refuse_codes(series, field: str, agg: str, kind: str | None = None) -> None:
    """A ValidationError when a text series holds codes written with leading zeros (01003): no sum or mean."""
    if (kind or (text_number_kind(series) if is_text(series) else "numbers")) == "codes":
        raise ValidationError(
            f"Field '{field}' holds codes written with leading zeros (like '{_first_code(series)}'), "
            f"so a {agg} of it means nothing.",
            fix="Aggregate a numeric field, or use agg=count, first, min or max.",
        )


def _first_code(series) -> str:
    text = series.dropna().astype(str).str.strip()
    codes = text[text.str.contains(CODE_PATTERN, regex=True)]
    return str(codes.iloc[0]) if len(codes) else ""
