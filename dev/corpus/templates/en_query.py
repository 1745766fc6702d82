"""English attribute queries: bare conditions, patterns, top-N by most/least, totals of a field and per-group counts."""

FUNCTION = {
    "filter_by_expression": [
        "{layer} whose {cond}",
        "show only {layer} with {cond}",
        "which {layer} have {cond}?",
        "{layer} where {cond}",
        "{layer} with {range}",
        "select {layer} with {range}",
        "{layer} with {field} {value}",
        "{layer} in {field} {value}",
    ],
    "select_rows": [
        ("the {n} {layer} with the most {field}", {"ascending": False}),
        ("the {layer} with the least {field}", {"top_n": 1, "ascending": True}),
        ("least populated {layer}", {"field": "@population", "top_n": 1, "ascending": True}),
        ("the {n} most valuable {layer}", {"field": "@value", "ascending": False}),
        ("bottom {n} {layer} by {field}", {"ascending": True}),
    ],
    "qgis_basic_statistics": [
        "total {field} of all {layer}",
        "sum of {field} across all {layer}",
        "what is the total {field} of the {layer}?",
        "add up the {field} of every feature in {layer}",
        "{field} of all {layer} combined",
    ],
    "group_by": [
        "{agg} {field} per {by} in {layer}",
    ],
    "count_features": [
        "count the {layer} per {field}",
        "number of {layer} for each {field}",
    ],
}
