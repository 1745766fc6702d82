"""The safe expression parser: one row per syntax form, checked against a direct pandas mask, and escape refusals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from geoclerk.errors import ValidationError
from geoclerk.function_lib.expression import evaluate, fields_used, filter_mask

DF = pd.DataFrame(
    {
        "population": [50_000, 200_000, 150_000, None, 120_000],
        "state": ["PA", "PA", "NY", None, "ny"],
        "name": ["Allentown", "Pittsburgh", "Albany", "X_ray", "Amsterdam"],
        "type": ["primary", "secondary", "primary", "track", "primary"],
        "code": ["12", "5", "abc", None, "40"],
        "road name": ["A1", "B2", "A1", "C3", "B2"],
    }
)

P, S, N, T, C = DF["population"], DF["state"], DF["name"], DF["type"], DF["code"]
NUM_CODE = pd.to_numeric(C, errors="coerce")

ROWS = [
    ("population > 100000 and state = 'PA'", (P > 100000) & (S == "PA")),
    ("population > 100000 AND state == 'PA'", (P > 100000) & (S == "PA")),
    ("\"type\" = 'primary'", T == "primary"),
    ('type = "primary"', T == "primary"),  # Python style: double quotes as text against a field
    ("name LIKE 'A%'", N.str.startswith("A")),
    ("name like 'A_bany'", N == "Albany"),
    ("name ILIKE 'a%'", N.str.lower().str.startswith("a")),
    ("name NOT LIKE 'A%'", ~N.str.startswith("A")),
    ("name LIKE 'X\\_ray'", pd.Series([False] * 5)),  # no escape syntax: the backslash is literal text
    ("name LIKE 'X_ray'", N == "X_ray"),
    ("state IN ('PA', 'NY')", S.isin(["PA", "NY"])),
    ("state in ['NY']", S == "NY"),
    ("state NOT IN ('PA')", ~S.isin(["PA"])),
    ("population IN (50000, 150000)", P.isin([50000, 150000])),
    ("state IS NULL", S.isna()),
    ("state IS NOT NULL", S.notna()),
    ("state is None", S.isna()),
    ("NOT state = 'PA'", ~(S == "PA")),
    ("not (population < 100000)", ~(P < 100000)),
    ("population BETWEEN 100000 AND 160000", (P >= 100000) & (P <= 160000)),
    ("population NOT BETWEEN 100000 AND 160000", ~((P >= 100000) & (P <= 160000))),
    ("state != 'PA'", (S != "PA") & S.notna()),
    ("state <> 'PA'", (S != "PA") & S.notna()),
    ("population / 1000 > 140", P / 1000 > 140),
    ("population * 2 - 100000 >= 200000", P * 2 - 100000 >= 200000),
    ("population % 100000 = 50000", P % 100000 == 50000),
    ("-population < -100000", -P < -100000),
    ("code > 10", NUM_CODE > 10),  # text field vs number literal: numeric comparison
    ("code = 5", NUM_CODE == 5),
    ("population = '50000'", P == 50000),  # number written as text against a numeric field
    ("name = 5", pd.Series([False] * 5)),
    ("lower(state) = 'ny'", S.str.lower() == "ny"),
    ("upper(name) LIKE 'AL%'", N.str.upper().str.startswith("AL")),
    ("length(name) = 6", N.str.len() == 6),
    ("abs(population - 150000) <= 30000", (P - 150000).abs() <= 30000),
    ("round(population / 100000) = 2", (P / 100000).round() == 2),
    ("coalesce(state, 'none') = 'none'", S.isna()),
    ("\"road name\" = 'A1'", DF["road name"] == "A1"),
    ("STATE = 'PA'", S == "PA"),  # field names are matched case-insensitively as a fallback
    ("population > 100000 or type = 'track' and state is null", (P > 100000) | ((T == "track") & S.isna())),
    ("(population > 100000 or type = 'track') and state is null", ((P > 100000) | (T == "track")) & S.isna()),
    ("name || '-' || state = 'Albany-NY'", N + "-" + S == "Albany-NY"),
    ("TRUE", pd.Series([True] * 5)),
]


@pytest.mark.parametrize("expression,expected", ROWS, ids=[r[0] for r in ROWS])
def test_expression_rows_match_pandas(expression, expected):
    mask = filter_mask(expression, DF)
    assert mask.dtype == bool
    assert mask.tolist() == expected.fillna(False).astype(bool).tolist()


def test_arithmetic_values():
    values = evaluate("population / 1000 + 1", DF)
    assert np.allclose(values.dropna().to_numpy(), (P / 1000 + 1).dropna().to_numpy())
    assert evaluate("2 * (3 + 4)", DF) == 14


def test_geometry_variables():
    import geopandas as gpd
    from shapely.geometry import box

    gdf = gpd.GeoDataFrame({"v": [1, 2]}, geometry=[box(0, 0, 2, 3), box(0, 0, 1, 1)], crs="EPSG:32633")
    assert evaluate("$area", gdf).tolist() == [6.0, 1.0]
    assert filter_mask("$length > 5", gdf).tolist() == [True, False]
    assert evaluate("$x", gdf).tolist() == [1.0, 0.5]


def test_dates_booleans_and_nulls():
    df = pd.DataFrame(
        {"built": pd.to_datetime(["2019-05-01", "2021-01-01", None]), "wifi": [True, False, True], "n": [1.5, None, 3]}
    )
    assert filter_mask("built > '2020-01-01'", df).tolist() == [False, True, False]
    assert filter_mask("wifi = TRUE", df).tolist() == [True, False, True]
    assert filter_mask("wifi and n > 2", df).tolist() == [False, False, True]
    assert filter_mask("n != 1.5", df).tolist() == [False, False, True]  # NULL is never unequal (SQL)


def test_fields_used():
    assert fields_used("population > 1 and \"road name\" LIKE 'A%'") == ["population", "road name"]


def test_unknown_field_suggests_the_closest():
    with pytest.raises(ValidationError) as err:
        filter_mask("popluation > 100000", DF)
    assert "popluation" in err.value.message
    assert "Did you mean 'population'" in err.value.fix


ESCAPES = [
    "__import__('os')",
    "__import__('os').system('id')",
    "os.system('rm -rf /')",
    "exec('print(1)')",
    "eval('1+1')",
    "open('/etc/passwd')",
    "getattr(name, '__class__')",
    "name.__class__",
    "().__class__.__bases__[0].__subclasses__()",
    "[c for c in name]",
    "lambda: 1",
    "population > 1; import os",
    "population if True else 0",
    "{'a': 1}",
    "`id`",
    "population > 1 # comment",
    "f'{population}'",
    "",
    "population >",
    "state IN (name)",
]


@pytest.mark.parametrize("expression", ESCAPES)
def test_escape_attempts_are_refused(expression):
    with pytest.raises(ValidationError):
        filter_mask(expression, DF)


def test_values_are_not_conditions():
    with pytest.raises(ValidationError, match="not a true/false condition"):
        filter_mask("population + 1", DF)
