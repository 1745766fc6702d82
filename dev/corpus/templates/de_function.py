"""German templates for every labelled tool."""

FUNCTION = {
    "download_geojson": [
        "lade das GeoJSON von {url} herunter",
        "hole OSM {tag} im Bereich {bbox}",
        "Lade bitte alle {tag} aus OpenStreetMap für die Bounding Box {bbox}",
    ],
    "read_vector": ["öffne {path}", "lade die Datei {path}", "füge {path} zum Projekt hinzu"],
    "add_field": [
        "füge {layer} ein Feld {name} mit {calc} hinzu",
        "neue Spalte {name} = {calc} in {layer}",
        "lege in {layer} ein Attribut {name} mit dem festen Wert {val} an",
        "Feldrechner: {name} = {calc}",
    ],
    "rename_field": [
        "benenne {field} in {layer} in {name} um",
        "Feld {field} umbenennen zu {name}",
        "in {layer} soll {field} künftig {name} heißen",
    ],
    "save_result": [
        "speichere {layer} als {fmt}",
        "exportiere {layer} als {fmt} mit dem Namen {fname}",
        "Ergebnis als {fmt} sichern",
        "speichere {layer}",
    ],
    "convert_format": [
        "konvertiere {layer} nach {fmt}",
        "wandle {layer} in das Format {fmt} um",
        "{layer} ins {fmt}-Format umwandeln",
    ],
    "reproject": [
        "projiziere {layer} nach {crs}",
        "transformiere {layer} in {crs}",
        "ändere das KBS von {layer} auf {crs}",
        "Koordinatensystem auf {crs} umstellen",
        ("weise {layer} das KBS {crs} zu, ohne die Koordinaten umzurechnen", {"assign": True}),
        "reprojiziere {layer}",
    ],
    "visualize_layer": [
        "zeige {layer} auf der Karte",
        "stelle {layer} nach {field} eingefärbt dar",
        "visualisiere {layer}",
    ],
    "interactive_edit": [
        "ich möchte {layer} bearbeiten",
        "öffne {layer} im Bearbeitungsmodus",
        "lass mich die Attribute von {layer} von Hand ändern",
    ],
    "group_by": [
        "{agg} von {field} je {by} in {layer}",
        "gruppiere {layer} nach {by} und berechne den {agg} von {field}",
        ("zähle {layer} nach {by}", {"agg": "count"}),
        "Wie hoch ist der {agg} von {field} pro {by}?",
    ],
    "join_table": [
        "verknüpfe {table} über {field} mit {layer}",
        "Tabellenjoin: {layer}.{field} = {table}.{tfield}",
        "hänge die Attribute aus {table} an {layer} an, Schlüssel {field} und {tfield}",
    ],
    "count_features": [
        "wie viele Objekte hat {layer}?",
        "zähle {layer}",
        "zähle {layer} nach {field}",
        "Anzahl der Datensätze in {layer}",
    ],
    "count_points_in_polygons": [
        "zähle die {points} in jedem Polygon von {polys}",
        "wie viele {points} liegen in jedem der {polys}?",
        "Punkte in Polygon zählen: {points} in {polys}, Feldname {name}",
    ],
    "select_rows": [
        ("die {n} {layer} mit dem höchsten {field}", {"ascending": False}),
        ("wähle die {n} {layer} mit dem niedrigsten {field}", {"ascending": True}),
        ("Top {n} von {layer} nach {field}", {"ascending": False}),
    ],
    "filter_by_expression": [
        "wähle {layer} mit {cond}",
        "filtere {layer} nach {cond}",
        "welche {layer} haben {cond}?",
        "extrahiere alle Objekte aus {layer} mit {cond}",
        "nach Attribut filtern",
    ],
    "sort_by_field": [
        "sortiere {layer} nach {field}",
        ("sortiere {layer} absteigend nach {field}", {"descending": True}),
        ("ordne {layer} aufsteigend nach {field}", {"descending": False}),
    ],
    "interactive_query": ["ich will {layer} per Klick abfragen", "interaktive Abfrage von {layer}"],
    "export_coordinates": [
        "exportiere die Koordinaten von {layer}",
        "schreibe die Koordinaten von {layer} in eine CSV",
        "liste die XY-Koordinaten aller Objekte in {layer} auf",
    ],
    "plot_map": [
        ("erstelle eine Choroplethenkarte von {layer} nach {field}", {"kind": "choropleth"}),
        ("Histogramm von {field}", {"kind": "histogram"}),
        ("Balkendiagramm von {field} für {layer}", {"kind": "bar"}),
        ("zeichne {layer} als Kartenbild", {"kind": "map"}),
    ],
    "geometry_length": [
        "berechne die Länge von {layer}",
        "wie lang ist jedes Objekt in {layer}?",
        "Längen von {layer} in Metern",
    ],
    "geometry_area": [
        "berechne die Fläche von {layer}",
        "wie groß ist jedes Polygon in {layer}?",
        "füge {layer} ein Flächenfeld hinzu",
    ],
    "add_xy": [
        "füge {layer} X- und Y-Koordinaten hinzu",
        "XY-Felder in {crs} zu {layer} hinzufügen",
        ("füge {layer} Längen- und Breitengrad als Felder hinzu", {"crs": "EPSG:4326"}),
    ],
    "clip": [
        "schneide {layer} mit {layer2} zu",
        "clippe {layer} auf {layer2}",
        "behalte nur die Teile von {layer} innerhalb von {layer2}",
        "{layer} zuschneiden",
    ],
    "overlay": [
        ("verschneide {layer} mit {layer2}", {"how": "intersection"}),
        ("Vereinigung von {layer} und {layer2}", {"how": "union"}),
        ("radiere {layer2} aus {layer} aus", {"how": "difference"}),
        ("Differenz von {layer} minus {layer2}", {"how": "difference"}),
        ("symmetrische Differenz von {layer} und {layer2}", {"how": "symmetric_difference"}),
        ("Identity-Verschneidung von {layer} mit {layer2}", {"how": "identity"}),
    ],
    "buffer": [
        "puffere {layer} um {dist}",
        "erstelle einen Puffer von {dist} um {layer}",
        "Puffer {dist}",
        ("{dist} Puffer um {layer}, zusammengeführt", {"dissolve": True}),
        "{n} Ringe im Abstand von {dist} um {layer}",
        "könntest du bitte eine {dist}-Zone um {layer} legen?",
        "Puffer um {layer}",
    ],
    "within_distance": [
        "welche {layer} liegen innerhalb von {dist} um {layer2}?",
        "wähle {layer} im Umkreis von {dist} von {layer2}",
        "finde {layer}, die höchstens {dist} von {layer2} entfernt sind",
    ],
    "spatial_join": [
        "räumlicher Join von {layer} mit {layer2}",
        "übertrage die Attribute von {layer2} nach Lage auf {layer}",
        ("in welchem der {layer2} liegt jedes Objekt von {layer}? als Feld anhängen", {"predicate": "within"}),
    ],
    "dissolve": [
        "löse {layer} auf",
        "verschmelze {layer} nach {field}",
        "fasse die Polygone von {layer} mit gleichem {field} zusammen",
    ],
    "split_polygons_by_lines": ["teile {layer} mit {layer2}", "zerschneide die Polygone von {layer} entlang {layer2}"],
    "to_lines": [
        "wandle {layer} in Linien um",
        "Polygone zu Linien für {layer}",
        "extrahiere die Grenzen von {layer} als Linien",
    ],
    "lines_to_polygons": ["wandle {layer} in Polygone um", "Linien zu Polygonen: {layer}"],
    "vertices_to_points": ["extrahiere die Stützpunkte von {layer}", "Knoten von {layer} als Punkte"],
    "centroids": [
        "Schwerpunkte von {layer}",
        "berechne den Mittelpunkt jedes Objekts in {layer}",
        ("ein Zentrum für den ganzen Layer {layer}", {"whole_layer": True}),
        ("Punkt auf Oberfläche für {layer}", {"method": "representative_point"}),
    ],
    "voronoi": [
        "Voronoi-Polygone für {layer}",
        "erstelle Thiessen-Polygone aus {layer}",
        "Voronoi-Diagramm von {layer}",
    ],
    "bounding_geometry": [
        ("konvexe Hülle um {layer}", {"shape": "convex_hull"}),
        ("umgebendes Rechteck von {layer} je {field}", {"shape": "envelope"}),
        ("minimaler umschließender Kreis um {layer}", {"shape": "circle"}),
    ],
    "cluster_points": [
        ("k-Means-Clustering von {layer} mit {n} Clustern", {"method": "kmeans"}),
        ("DBSCAN auf {layer} mit {dist} Suchradius", {"method": "dbscan"}),
        "clustere {layer}",
        ("teile {layer} in {n} Gruppen", {"method": "kmeans"}),
    ],
    "main_direction": ["Hauptrichtung von {layer}", "berechne die Ausrichtung jedes Polygons in {layer}"],
    "connect_closest_pair": [
        "verbinde die zwei nächstgelegenen Punkte in {layer}",
        "welche zwei {layer} liegen am nächsten beieinander? verbinde sie",
    ],
    "distance_matrix": [
        "Distanzmatrix von {layer}",
        "Distanzmatrix zwischen {layer} und {layer2}",
        "alle paarweisen Abstände zwischen {layer}",
    ],
    "nearest_distance_summary": [
        "fasse die Abstände von {layer} zum nächsten {layer2} zusammen",
        "mittlere Entfernung von {layer} zum nächsten {layer2} je {field}",
    ],
    "join_nearest": [
        "verbinde jedes Objekt aus {layer} mit dem nächsten aus {layer2}",
        "finde für jedes {layer}-Objekt das nächste {layer2}",
        "nächster Nachbar aus {layer2} für {layer}",
    ],
    "nearest_point_on_line": [
        "nächster Punkt auf {layer2} für jedes Objekt in {layer}",
        "rasten {layer} auf die nächste Stelle von {layer2} ein",
    ],
    "perpendicular_distance": [
        "lotrechter Abstand von {layer} zu {layer2}",
        "wie weit ist jeder Punkt aus {layer} von {layer2} entfernt?",
    ],
    "xy_to_line": [
        "erzeuge Linien in {layer} von {x1}/{y1} nach {x2}/{y2}",
        "Linien aus den Koordinatenfeldern {x1}, {y1}, {x2}, {y2} von {layer}",
    ],
    "qgis_extract_by_location": [
        ("extrahiere {layer}, die {layer2} schneiden", {"predicate": "intersects"}),
        ("wähle {layer} innerhalb von {layer2}", {"predicate": "within"}),
        "Auswahl nach Lage für {layer}",
    ],
    "qgis_join_by_nearest": [
        "verknüpfe {layer} mit dem nächsten {layer2} im Umkreis von {dist}",
        "Attribute nach nächstem Objekt verbinden, maximal {dist} Abstand",
    ],
    "qgis_convex_hull": [
        "konvexe Hülle jedes Objekts in {layer}",
        "ersetze jedes Polygon in {layer} durch seine konvexe Hülle",
    ],
    "qgis_oriented_bounding_box": [
        "orientiertes minimales Begrenzungsrechteck für {layer}",
        "gedrehtes umschließendes Rechteck je Objekt von {layer}",
    ],
    "qgis_delaunay": ["Delaunay-Triangulation von {layer}", "trianguliere {layer}"],
    "qgis_nearest_neighbour_analysis": [
        "Nächste-Nachbarn-Analyse für {layer}",
        "sind die {layer} geclustert oder zufällig verteilt? NNI berechnen",
    ],
    "qgis_shortest_path": [
        "kürzester Weg auf {layer} von {start} nach {end}",
        "Route von {place1} {place2}",
        ("schnellster Weg über {layer} von {start} nach {end}", {"strategy": "fastest"}),
    ],
    "qgis_service_area": [
        "Einzugsbereich von {dist} ab {start} auf {layer}",
        "welche Teile von {layer} erreiche ich innerhalb von {dist} ab {start}?",
    ],
    "qgis_create_grid": [
        ("erstelle ein {dist}-Raster über {layer}", {"type": "rectangle"}),
        ("Sechseckgitter mit {dist} Abstand über {layer}", {"type": "hexagon"}),
        "Gitter erstellen",
    ],
    "qgis_random_points_in_polygons": [
        "erzeuge {n} Zufallspunkte in jedem Polygon von {layer}",
        "{n} zufällige Punkte pro Objekt in {layer}, mindestens {dist} Abstand",
    ],
    "qgis_fix_geometries": [
        "repariere die Geometrien von {layer}",
        "{layer} hat ungültige Geometrien, bitte korrigieren",
        "Geometrien reparieren",
    ],
    "qgis_merge_layers": ["führe {layer} und {layer2} zusammen", "vereine {layer} und {layer2} in einem Layer"],
    "qgis_aggregate": [
        "löse {layer} nach {by} auf und berechne den {agg} von {field}",
        "aggregiere {layer} nach {by} mit {agg} von {field}",
    ],
    "qgis_basic_statistics": [
        "Grundstatistik für {field} in {layer}",
        "Minimum, Maximum und Mittelwert von {field}?",
        "Statistik zu {field}",
    ],
    "qgis_heatmap": [
        "Heatmap von {layer} mit {dist} Radius und {px} Pixelgröße",
        "Kerndichte von {layer}, Radius {dist}, Zellgröße {px}",
        "erstelle eine Heatmap von {layer}",
    ],
    "qgis_zonal_statistics": [
        "Zonenstatistik von {raster} für {layer}",
        "mittlerer Wert von {raster} in jedem Polygon von {layer}",
        "Zonenstatistik",
    ],
    "qgis_sample_raster": [
        "Rasterwerte von {raster} an den Punkten von {layer} abfragen",
        "lies {raster} an jedem Objekt von {layer} aus",
    ],
    "qgis_contours": [
        "Höhenlinien aus {raster} alle {iv}",
        "erzeuge Konturlinien mit {iv} Abstand aus {raster}",
        "Höhenlinien erzeugen",
    ],
    "qgis_slope": ["Hangneigung aus {raster}", "berechne die Neigung von {raster}"],
    "qgis_aspect": ["Exposition aus {raster}", "berechne die Hangausrichtung von {raster}"],
    "qgis_hillshade": ["Schummerung von {raster}", "Hillshade aus {raster} mit Azimut {az}"],
    "qgis_rasterize": [
        "rasterisiere {layer} mit {px} Auflösung",
        "wandle {layer} nach {field} in ein Raster mit {px} Zellen um",
    ],
    "qgis_polygonize": ["polygonisiere {raster}", "wandle {raster} in Vektorpolygone um"],
    "qgis_raster_calculator": ["Rasterrechner: {raster} {calc}", "neues Raster aus {raster} {calc}"],
    "qgis_reclassify_by_table": [
        "klassifiziere {raster} neu: {classes}",
        "Reklassifizierung von {raster} mit der Tabelle {classes}",
    ],
}
