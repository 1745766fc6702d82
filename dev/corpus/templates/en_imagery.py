"""English templates for imagery: normalized-difference indices, unsupervised classification, change, NDVI zones."""

FUNCTION = {
    "normalized_difference": [
        "calculate {index} from {raster}",
        "compute {index} for {raster}",
        "{index} of {raster}",
        "make an {index} raster from {raster}",
        "derive {index} from the bands of {raster}",
        "create {index} from the red and near infrared bands of {raster}",
        ("calculate the NDVI", {"index": "ndvi"}),
        ("vegetation index of {raster}", {"index": "ndvi"}),
        ("how green is {raster}? compute the NDVI", {"index": "ndvi"}),
        ("map open water in {raster} with NDWI", {"index": "ndwi"}),
        "get {index} for the {raster}",
    ],
    "classify_image": [
        "classify {raster} into {n} classes",
        "unsupervised classification of {raster} with {n} classes",
        "k-means classification of {raster}, k = {n}",
        "classify the {raster}",
        "run an unsupervised classification on {raster}",
        "cluster the pixels of {raster} into {n} groups",
        "segment {raster} into {n} land cover classes with k-means",
        "classify the satellite image",
        "split {raster} into {n} spectral classes",
        "unsupervised land cover classification of {raster}",
    ],
    "raster_change": [
        "detect changes between {before} and {after}",
        "change detection from {before} to {after}",
        "what changed between {before} and {after}?",
        "difference between {before} and {after}",
        "compare {before} and {after} and show what changed",
        "find areas that changed from {before} to {after} by more than {t}",
        "change map between {before} and {after} with threshold {t}",
        "how much area changed between {before} and {after}?",
        "detect changes between the two images",
        "subtract {before} from {after}",
    ],
    "qgis_zonal_statistics": [
        "zonal mean of {raster} per polygon of {layer}",
        "zonal mean of {raster} for every one of {layer}",
        "average {raster} value per {layer}",
    ],
}

CHAINS = [
    ("normalized_difference", "calculate the NDVI of {raster} and then its mean in each of {layer}"),
    ("normalized_difference", "compute NDVI from {raster}, then average it per {layer}"),
    ("classify_image", "classify {raster} into {n} classes and then turn the classes into polygons"),
    ("normalized_difference", "zonal mean of NDVI per {layer} from {raster}"),
]

CODEGEN = [
    "supervised classification of {raster} with training polygons from {layer}",
    "train a random forest on {layer} to classify {raster}",
    "NDVI time series trend for every pixel over the last five years",
    "pan-sharpen {raster}",
    "atmospheric correction of the satellite image",
    "detect the field boundaries in {raster} with edge detection",
    "calculate NDVI for each image in the folder and plot the seasonal curve",
    "find clusters of high NDVI with a hot spot analysis (Getis-Ord) and Moran's I",
    "segment {raster} into objects with SLIC superpixels",
    "compute a texture measure (GLCM contrast) of {raster}",
]

CHAT = [
    "what is NDVI?",
    "what does a negative NDVI mean?",
    "which bands do I need for NDWI?",
]
