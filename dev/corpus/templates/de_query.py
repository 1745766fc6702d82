"""German attribute queries: 'deren'-clauses, patterns, top-N by meisten/wenigsten, totals, per-group counts."""

FUNCTION = {
    "filter_by_expression": [
        "{layer}, deren {cond}",
        "alle {layer} mit {cond}",
        "zeige {layer} mit {cond}",
        "nur {layer}, bei denen {cond}",
        "{layer} mit {cond} auswählen",
        "{layer} mit {range}",
        "alle {layer} mit {range}",
        "{layer} mit {field} {value}",
        "alle {layer}, deren {field} {value} ist",
    ],
    "select_rows": [
        ("die {n} {layer} mit den meisten {field}", {"ascending": False}),
        ("die {layer} mit den wenigsten {field}", {"top_n": 1, "ascending": True}),
        ("welche {layer} hat den kleinsten Wert bei {field}?", {"top_n": 1, "ascending": True}),
        ("die {n} {layer} mit dem geringsten {field}", {"ascending": True}),
        ("die {n} bevölkerungsreichsten {layer}", {"field": "@population", "ascending": False}),
        ("die {n} größten {layer} nach {field}", {"ascending": False}),
    ],
    "qgis_basic_statistics": [
        "Summe von {field} aller {layer}",
        "wie viel {field} haben alle {layer} zusammen?",
        "Gesamtwert von {field} über alle {layer}",
        "{field} insgesamt über alle {layer}",
        "addiere {field} aller {layer}",
        "Gesamtzahl der {field} in {layer}",
        "Gesamtzahl der {field}",
        "durchschnittliche {field} der {layer}",
        "mittlere {field} aller {layer}",
    ],
    "group_by": [
        "{agg} {field} pro {by}",
        "{field} je {by} ({agg}) in {layer}",
        ("durchschnittliche {field} pro {by}", {"agg": "mean"}),
        ("mittlere {field} je {by} in {layer}", {"agg": "mean"}),
        ("gesamte {field} pro {by}", {"agg": "sum"}),
    ],
    "count_features": [
        "Anzahl der {layer} pro {field}",
        "wie viele {layer} gibt es je {field}?",
        "zähle die {layer} pro {field}",
    ],
}
