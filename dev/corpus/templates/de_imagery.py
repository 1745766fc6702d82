"""German templates for imagery: normalized-difference indices, unsupervised classification, change, NDVI zones."""

FUNCTION = {
    "normalized_difference": [
        "{index} aus {raster} berechnen",
        "berechne {index} für {raster}",
        "{index} von {raster}",
        "erstelle ein {index}-Raster aus {raster}",
        ("NDVI berechnen", {"index": "ndvi"}),
        ("Vegetationsindex von {raster}", {"index": "ndvi"}),
        "leite {index} aus den Bändern von {raster} ab",
        "{index} für das {raster} berechnen",
    ],
    "classify_image": [
        "{raster} in {n} Klassen klassifizieren",
        "unüberwachte Klassifikation von {raster} mit {n} Klassen",
        "k-Means-Klassifikation von {raster}, k = {n}",
        "{raster} klassifizieren",
        "Bild klassifizieren",
        "klassifiziere {raster} unüberwacht in {n} Klassen",
        "die Pixel von {raster} in {n} Gruppen clustern",
        "Landbedeckung von {raster} unüberwacht klassifizieren",
    ],
    "raster_change": [
        "Veränderungen zwischen {before} und {after} erkennen",
        "Änderungsdetektion von {before} zu {after}",
        "was hat sich zwischen {before} und {after} verändert?",
        "Differenz zwischen {before} und {after}",
        "Flächen, die sich von {before} zu {after} um mehr als {t} verändert haben",
        "Veränderungen zwischen den beiden Bildern erkennen",
        "wie viel Fläche hat sich zwischen {before} und {after} verändert?",
        "{before} von {after} abziehen",
    ],
    "qgis_zonal_statistics": [
        "Mittelwert von {raster} für jedes Polygon in {layer}",
        "Zonenmittel von {raster} pro Polygon von {layer}",
    ],
}

CHAINS = [
    ("normalized_difference", "berechne den NDVI von {raster} und dann seinen Mittelwert je {layer}"),
    ("classify_image", "{raster} in {n} Klassen klassifizieren und danach die Klassen in Polygone umwandeln"),
    ("normalized_difference", "NDVI aus {raster} berechnen, anschließend Mittelwert pro {layer}"),
]

CODEGEN = [
    "überwachte Klassifikation von {raster} mit Trainingsflächen aus {layer}",
    "trainiere einen Random Forest auf {layer}, um {raster} zu klassifizieren",
    "NDVI-Zeitreihe und Trend je Pixel über fünf Jahre",
    "Atmosphärenkorrektur des Satellitenbilds",
    "Feldgrenzen in {raster} mit Kantenerkennung finden",
    "Hotspot-Analyse (Getis-Ord) des NDVI je {layer} mit Moran's I",
]

CHAT = ["was ist NDVI?", "welche Bänder brauche ich für den NDWI?"]
