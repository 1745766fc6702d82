"""German words of the request reader (folded: lower case, umlauts without dots, ß as ss). See languages/__init__.py."""

from __future__ import annotations

FILLERS = {"paar", "einige", "rechne", "rechnen", "ausrechnen", "ins", "leg", "lege", "liegt", "liegen", "befindet",
    "befinden", "sich", "frag", "ab", "abfragen",
    "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "eines", "es", "sie",
    "ihr", "ihre", "ihren", "ihrem", "ihrer", "sein", "seine", "seinen", "ich", "mir", "mich", "mein", "meine",
    "meinen", "meiner", "wir", "uns", "unsere", "unseren", "du", "dir", "dich", "dein", "deine", "ist", "sind",
    "war", "waren", "wird", "werden", "wurde", "wurden", "hat", "haben", "hatte", "kann", "konnen", "koennen",
    "konntest", "koenntest", "kannst", "konnte", "mochte", "moechte", "will", "wollen", "soll", "sollen",
    "muss", "und", "auch", "nur", "mal", "doch", "bitte", "danke", "hallo", "gerne", "gern", "schnell", "eben",
    "kurz", "einfach", "jetzt", "dann", "so", "als", "welche", "welcher", "welches", "was", "wer", "da", "hier",
    "von", "vom", "im", "in", "am", "an", "auf", "fur", "fuer", "mit", "zu", "zum", "zur", "um", "uber", "ueber",
    "durch", "bei", "beim", "aus", "nach", "innerhalb",
    "berechne", "berechnen", "berechnet", "erstelle", "erstellen", "erzeuge", "erzeugen", "mache", "mach",
    "machen", "gib", "gibt", "geben", "zeige", "zeig", "zeigen", "finde", "finden", "ermittle", "ermitteln",
    "bestimme", "bestimmen", "liste", "hole", "fuhre", "fuehre", "hilf", "brauche", "brauchen",
    "ebene", "ebenen", "layer", "daten", "datensatz", "datei", "dateien", "objekt", "objekte", "objekten",
    "feature", "features", "ergebnis", "ergebnisse", "tabelle", "attribut", "attribute", "zeile", "zeilen",
    "geometrie", "geometrien", "alle", "allen", "aller", "alles", "gesamte", "gesamten", "ganze", "ganzen",
    "neue", "neuen", "neu", "vorhandenen", "geladenen", "polygon", "polygone", "punkte", "punkt", "linien",
    "linie",
}  # fmt: skip

NEGATIONS = {"nicht", "kein", "keine", "keinen", "keinem", "keiner", "ohne", "ausser", "ausserhalb", "ausgenommen",
             "abgesehen", "weder", "noch", "nie", "niemals", "sondern", "andere", "anderen", "weiter",
             "minus", "abzuglich", "abzueglich"}  # fmt: skip

EACH = {"je", "jede", "jeden", "jedem", "jeder", "jedes", "pro", "einzeln", "separat", "getrennt", "jeweils",
        "jeweilige", "jeweiligen", "eigene", "eigenen"}  # fmt: skip

FORMAT_WORDS = {"geojson", "json", "shapefile", "shp", "kml", "gpkg", "geopackage", "csv", "parquet", "format",
                "datei", "shape", "shapedatei"}  # fmt: skip

SOURCE_MARKERS = ("von", "aus")
TARGET_MARKERS = ("nach", "in", "zu", "auf", "ins")

SAVE_WORDS = {"speichere", "speichern", "gespeichert", "speicher", "exportiere", "exportieren", "exportiert",
              "schreibe", "schreiben", "als", "format", "datei", "neue", "neuen", "ausgabe", "namens", "dateiname",
              "name"}  # fmt: skip

COMPARE_WORDS = {"euro", "eur", "dollar", "prozent", "wo", "deren", "dessen", "die", "mit", "mehr", "weniger",
                 "als", "grosser", "groesser",
                 "kleiner", "hoher", "hoeher", "niedriger", "uber", "ueber", "unter", "mindestens", "hochstens",
                 "hoechstens", "gleich", "ist", "sind", "genau", "zwischen", "und", "oder", "enthalt", "enthalten",
                 "beginnt", "heisst", "namens", "typ", "art", "wert", "nur", "filtere", "filtern", "wahle",
                 "waehle", "behalte", "extrahiere", "haben", "hat", "feld", "spalte", "kategorie", "klasse",
                 "liegt", "liegen"}  # fmt: skip

AGG_WORDS = {"gross", "summe", "summen", "summiere", "gesamt", "gesamte", "insgesamt", "durchschnitt",
             "durchschnittlich",
             "durchschnittliche", "durchschnittlichen", "mittel", "mittlere", "mittleren", "mittelwert", "median",
             "maximum", "minimum", "statistik", "statistiken", "zusammen", "wie", "viele", "anzahl", "zahl",
             "aggregiere", "aggregieren"}  # fmt: skip

CRS_WORDS = {"umrechnen", "rechne", "kbs", "zuweisen", "weise", "zu", "definiere", "definieren", "quelle",
             "ziel", "crs", "epsg", "koordinatensystem", "koordinatenreferenzsystem", "bezugssystem", "projektion",
             "projiziere", "projizieren", "umprojizieren", "umprojiziere", "reprojiziere", "reprojizieren",
             "transformiere", "transformieren", "wandle", "umwandeln", "konvertiere", "konvertieren", "um",
             "utm", "zone", "wgs", "wgs84", "mercator", "web", "geographische", "geografische", "koordinaten",
             "grad", "etrs89", "etrs", "code", "andere", "metrisches", "metrische", "system"}  # fmt: skip

MEASURE_WORDS = {"flache", "flaeche", "flachen", "flaechen", "grosse", "groesse", "lange", "laenge", "langen",
                 "laengen", "umfang", "wie", "gross", "lang", "quadratmeter", "quadratkilometer", "hektar", "km",
                 "km2", "m2", "meter", "kilometer", "miles", "meilen", "fuss", "einheit", "gesamt", "insgesamt",
                 "messen", "miss", "gesamtlange", "gesamtlaenge", "gesamtflache", "gesamtflaeche"}  # fmt: skip

DISTANCE_WORDS = {"abstand", "entfernung", "radius", "umkreis", "von", "um", "innerhalb", "meter", "m", "km",
                  "kilometer", "meilen", "fuss", "breit", "breite", "zone", "ring", "ringe", "innen", "nach",
                  "nahe", "nah",
                  "naher", "naeher", "im", "bis", "zu", "weg", "reichweite", "puffer"}  # fmt: skip

TOOL_CUES = {
    "xy_to_line": {"start", "ziel", "start-", "koordinaten", "zielkoordinaten", "startkoordinaten", "linien", "linie",
                   "aus", "von", "nach", "erzeuge", "zeichne", "verbinde"},
    "flatten_fields": {"verschachtelte", "verschachtelten", "auflosen", "entschachteln", "entschachtle", "glatte",
                       "struct-spalten", "spalten", "einfache", "aufteilen", "felder", "attribute"},
    "join_table": {"verknupfe", "verknupfen", "verbinde", "verbinden", "hange", "tabelle", "uber", "mit", "an",
                   "schlussel", "schlusselfeld", "feld"},
    "qgis_slope": {"grad", "prozent", "hangneigung", "neigung", "steigung", "gefalle"},
    "qgis_zonal_statistics": {"zonenstatistik", "mittlere", "je", "pro"},
    "distance_matrix": {"zwischen", "distanzmatrix", "abstande", "abstaende", "entfernungen", "paarweise"},
    "nearest_distance_summary": {"zwischen", "nachsten", "naechsten", "nachbarn", "mittlere", "abstand"},
    "connect_closest_pair": {"zwischen", "nachsten", "naechsten", "paar", "linie", "verbinde"},
    "join_nearest": {"nachstgelegenen", "nachstgelegene", "nachsten", "naechsten", "verbinde", "verbinden", "mit"},
    "qgis_join_by_nearest": {"nachstgelegenen", "nachsten", "naechsten", "hange", "hang", "an"},
    "spatial_join": {"hange", "hang", "an", "namen", "attribute", "ubernimm", "ubernehmen", "raumlich", "verbinde"},
    "qgis_create_grid": {"gitter", "raster", "netz", "zellen", "zelle", "ausdehnung", "uber", "quadrate"},
    "to_lines": {"linien", "umrisse", "umriss", "grenzen", "grenzlinien", "wandle", "um", "nur", "die"},
    "vertices_to_points": {"stutzpunkte", "stuetzpunkte", "knoten", "eckpunkte", "extrahiere", "extrahier"},
    "add_xy": {"koordinaten", "spalten", "felder", "fuge", "hinzu", "x", "y"},
    "buffer": {"puffer", "puffere", "puffern", "gepuffert", "pufferzone", "pufferzonen", "um", "herum"},
    "qgis_buffer": {"puffer", "puffere", "puffern", "pufferzone", "pufferzonen"},
    "centroids": {"schwerpunkt", "schwerpunkte", "mittelpunkt", "mittelpunkte", "zentroid", "zentroide",
                  "zentrum", "mitte"},
    "reproject": {"umprojizieren", "umprojiziere", "projiziere", "projizieren", "reprojiziere", "transformiere",
                  "transformieren", "wandle", "um", "konvertiere"},
    "clip": {"zuschneiden", "schneide", "schneiden", "ausschneiden", "aus", "zu", "beschneide", "beschneiden",
             "ausstanzen", "zugeschnitten", "clippen", "clip"},
    "dissolve": {"zusammenfuhren", "zusammenfuehren", "fuhre", "fuehre", "auflosen", "aufloesen", "lose", "loese",
                 "auf", "verschmelze", "verschmelzen", "grenzen",
                 "zusammenfassen", "fasse", "zusammen", "vereinige", "vereinigen"},
    "geometry_area": {"flache", "flaeche", "flachen", "flaechen", "grosse", "groesse", "wie", "gross"},
    "geometry_length": {"lange", "laenge", "langen", "laengen", "umfang", "wie", "lang"},
    "count_features": {"zahle", "zaehle", "zahlen", "zaehlen", "anzahl", "wie", "viele", "wieviele", "gibt"},
    "count_points_in_polygons": {"zahle", "zaehle", "zahlen", "zaehlen", "anzahl", "wie", "viele", "wieviele",
                                 "liegen", "befinden", "sich", "darin"},
    "filter_by_expression": {"auswahlen", "auswaehlen", "wahle", "aus", "filtere", "filtern", "rausfiltern",
                             "herausfiltern", "behalte", "waehle",
                             "extrahiere", "nur", "die"},
    "select_rows": {"kurzesten",
                    "mittlere", "mittleren", "hochste", "hoechste", "niedrigste", "wahle", "waehle", "die",
                    "grossten", "groessten", "hochsten", "hoechsten", "kleinsten",
                    "meisten", "wenigsten", "niedrigsten", "geringsten", "ersten", "nur", "hat", "haben", "welche",
                    "welcher", "welches"},
    "sort_by_field": {"sortiere", "sortieren",
                      "ordne", "ordnen", "nach", "absteigend", "aufsteigend" },
    "bounding_geometry": {"umschliessendes", "umschliessende", "rechteck", "hulle", "huelle", "konvexe",
                          "begrenzungsrahmen", "ausdehnung", "kreis"},
    "within_distance": {"innerhalb", "nahe", "nah", "umkreis", "von", "liegen", "die", "hochstens", "hoechstens",
                        "entfernt", "maximal", "welche"},
    "save_result": {"speichere", "speichern", "exportiere", "exportieren", "als", "format", "datei"},
    "convert_format": {"konvertiere", "konvertieren", "umwandeln", "wandle", "um", "als", "format"},
    "voronoi": {"voronoi", "thiessen", "polygone"},
    "plot_map": {"einfarben", "einfaerben", "farben", "ausgeben", "png", "bild", "eingefarbt", "eingefaerbt",
                 "farbe", "karte", "diagramm", "histogramm", "zeichne",
                 "plotte", "darstellen", "stelle", "dar" },
    "visualize_layer": {"einfarben", "einfaerben", "farben", "ausgeben", "png", "bild", "eingefarbt",
                        "eingefaerbt", "farbe", "karte", "zeige", "darstellen",
                        "visualisiere", "visualisieren", "stelle", "dar" },
    "normalized_difference": {"index", "vegetationsindex", "wasserindex", "berechnen", "berechne", "aus", "bandern",
                              "baender", "bander", "raster", "ableiten", "leite", "ab"},
    "classify_image": {"klassifizieren", "klassifiziere", "klassifikation", "unuberwacht", "unueberwacht",
                       "unuberwachte", "klassen", "klasse", "in", "k-means", "gruppen", "pixel", "clustern",
                       "landbedeckung"},
    "raster_change": {"veranderungen", "veraenderungen", "veranderung", "anderungsdetektion", "erkennen",
                      "zwischen", "differenz", "von", "zu", "beiden", "bildern", "verandert", "abziehen",
                      "flache", "flachen", "um", "mehr", "als", "viel"},
}  # fmt: skip

# Verb stems (folded) that name the tool's own work after 'and': 'group the shapes by type and merge them' is
# one dissolve, not a chain. Keyed by trait (function_lib/traits.py).
TRAIT_VERBS = {"dissolves": ("auflos", "zusammenfass", "verschmelz"), "merges_layers": ("zusammenfuhr", "vereinig")}

# Indefinite pronouns: never the value of a condition ('Nutzung is anything other than irrigation' keeps
# only the negation).
# Words that stand for a layer said before (lower-case 'sie' only: 'Sie' is the polite 'you').
REFERENCES = {"sie", "diese", "ihnen", "das ergebnis", "dem ergebnis", "die ergebnisse", "den ergebnissen",
              "das letzte ergebnis", "das vorherige ergebnis", "dem letzten ergebnis", "diese ebene", "die neue ebene",
              "darin", "drin", "darinnen", "daraus", "darauf", "darunter", "dazwischen", "davon"}  # fmt: skip
# Prepositions that make the word after them a layer's role; the pronominal adverbs (darin, daraus) are roles
# themselves (REFERENCES that start with 'da'/'dr').
REFERENCE_ROLES = {"in", "innerhalb", "um", "nahe", "von", "vom", "aus", "zu", "mit", "auf", "entlang", "ausserhalb",
                   "gegen", "uber", "ueber", "durch", "an", "bei", "zwischen", "pro", "je"}  # fmt: skip

# 'mach dasselbe für die Cafés' (planning/followup.py).
SAME = {"dasselbe", "das gleiche", "das selbe", "genauso", "ebenso", "ebenfalls", "wiederhole das", "nochmal",
        "noch einmal", "auch"}  # fmt: skip

# 'wähle die Bezirke mit … aus', 'markiere …': a selection; 'extrahiere', 'speichere', 'neue Ebene': a new layer.
SELECT_VERBS = {"wahle", "waehle", "auswahlen", "auswaehlen", "selektiere", "selektieren", "markiere", "markieren",
                "hebe", "hervorheben"}  # fmt: skip
LAYER_WORDS = {"extrahiere", "extrahieren", "speichere", "speichern", "exportiere", "exportieren", "kopiere",
               "neue ebene", "neuen layer", "als ebene", "als layer", "eigene ebene", "datei", "schreibe"}  # fmt: skip

# CRS words that say the layer itself goes into the CRS (see en.py).
REPROJECT_VERBS = {"projiziere", "projizieren", "umprojizieren", "umprojiziere", "reprojiziere", "reprojizieren",
                   "transformiere", "transformieren", "wandle", "umwandeln", "konvertiere", "konvertieren",
                   "umrechnen"}  # fmt: skip

INDEFINITE = {"etwas", "irgendwas", "irgendetwas", "alles", "nichts", "andere", "anderes", "anderen", "beliebig",
              "beliebige"}  # fmt: skip
# The word of a calendar year said with its number ('the year 2025', 'im Jahr 2025', '2025年'): claimed with it.
YEAR_WORDS = {"jahr", "jahre", "jahres"}

# A request of several steps (router/chain.py; see en.py).
CHAIN_CONNECTORS = {"und", "dann", "und dann", "danach", "anschliessend", "im anschluss", "auch", "und auch", "erst",
                    "zuerst", "als erstes", "zunachst", "zum schluss", "schliesslich", "zuletzt"}  # fmt: skip
RESULT_NOUNS = {"buffer": {"puffer", "puffern", "pufferzone", "pufferzonen", "pufferflache", "pufferflachen",
                           "zone", "zonen", "ring", "ringe", "ringen"}}  # fmt: skip
RESULT_DETERMINERS = {"die", "den", "der", "dem", "diese", "diesen", "alle", "allen", "jede", "jeden", "jedem",
                      "jeder", "jedes"}  # fmt: skip
REFERENCE_WORD = "sie"
ROLE_REFERENCE_WORD = "ihnen"  # after a role word: 'in jedem Puffer' → 'in ihnen'
EACH_REFERENCE = "ihnen"
BARE_EACH = {"jedem", "jeder", "jedes"}
# German puts the connector after the verb ('und zähle dann die Häuser'): read as 'und dann zähle die Häuser'.
CHAIN_AFTER_VERB = {"dann", "danach", "anschliessend", "anschließend", "zuletzt", "schliesslich", "schließlich"}

# Questions whose answer takes steps (router/questions.py; see en.py).
HOW_MANY = {"wie viele", "wieviele", "wie viel", "die anzahl der", "die zahl der"}
SHARE = {"welcher anteil der", "welcher anteil", "wie viel prozent der", "wie viel prozent", "wieviel prozent",
         "welchen anteil"}  # fmt: skip
WHICH = {"welcher", "welche", "welches", "welchem", "welchen"}
MOST = {"die meisten", "am meisten", "meisten"}
FEWEST = {"die wenigsten", "am wenigsten", "wenigsten"}
HAVE = {"hat", "haben", "enthalt", "enthalten", "gibt", "es", "sind", "ist", "liegen", "liegt"}
MEASURE_COMPARATIVES = {"langer": ("length", ">"), "kurzer": ("length", "<")}
THAN = {"als"}
KEEP_VERBS = {"wahle", "waehle", "auswahlen", "behalte", "behalten", "filtere", "filtern", "extrahiere", "nimm"}
JOINS = {"und", "oder", "sowohl", "beide", "entweder", "gegenuber"}
HIGHEST = {"den hochsten", "die hochste", "das hochste", "hochste", "hochsten", "den grossten", "die grosste",
           "das grosste", "grosste", "grossten"}  # fmt: skip
LOWEST = {"den niedrigsten", "die niedrigste", "das niedrigste", "niedrigste", "niedrigsten", "den kleinsten",
          "die kleinste", "das kleinste", "kleinste", "kleinsten"}  # fmt: skip
PER_WORD = "pro"
