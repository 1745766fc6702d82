"""Write the deterministic "sample town" in data/sample/ (EPSG:32633) and convert the Natural Earth layers."""

from __future__ import annotations

import argparse
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
from shapely import voronoi_polygons
from shapely.geometry import LineString, MultiPoint, Point, Polygon

CRS = "EPSG:32633"  # WGS 84 / UTM zone 33N
X0, Y0 = 500_000.0, 5_800_000.0  # south-west corner of the town
WIDTH, HEIGHT = 6_000.0, 5_000.0
SEED = 20261121

DISTRICT_NAMES = ["Altstadt", "Nordend", "Südhafen", "Westpark", "Ostfeld", "Lindenau", "Bergheim", "Seeviertel"]
STREET_STEMS = ["Linden", "Birken", "Kastanien", "Markt", "Hafen", "Schul", "Bahnhof", "Mühlen", "Garten", "Kirch"]
CAFE_STEMS = ["Bean", "Crema", "Kaffeehaus", "Espresso Bar", "Teestube", "Roastery", "Milchbar", "Café Central"]


def town_boundary() -> Polygon:
    """A slightly irregular outline around the town's rectangle."""
    return Polygon(
        [
            (X0, Y0 + 400),
            (X0 + 1500, Y0),
            (X0 + WIDTH - 300, Y0 + 150),
            (X0 + WIDTH, Y0 + HEIGHT - 600),
            (X0 + WIDTH - 1200, Y0 + HEIGHT),
            (X0 + 200, Y0 + HEIGHT - 250),
        ]
    )


def make_districts(rng, boundary: Polygon) -> gpd.GeoDataFrame:
    seeds = MultiPoint(
        [(X0 + rng.uniform(700, WIDTH - 700), Y0 + rng.uniform(700, HEIGHT - 700)) for _ in DISTRICT_NAMES]
    )
    cells = [c.intersection(boundary) for c in voronoi_polygons(seeds, extend_to=boundary).geoms]
    cells = sorted(cells, key=lambda g: (round(g.centroid.y, -2), g.centroid.x))
    landuse = ["residential", "commercial", "mixed", "industrial", "residential", "mixed", "residential", "park"]
    area_km2 = np.array([c.area / 1e6 for c in cells])
    density = rng.integers(800, 6500, len(cells))
    gdf = gpd.GeoDataFrame(
        {
            "district_id": np.arange(1, len(cells) + 1),
            "name": DISTRICT_NAMES[: len(cells)],
            "population": (area_km2 * density).round().astype(int),
            "area_km2": area_km2.round(3),
            "landuse": landuse[: len(cells)],
            "median_income": rng.integers(21_000, 58_000, len(cells)),
        },
        geometry=cells,
        crs=CRS,
    )
    return gdf


def make_roads(rng, boundary: Polygon) -> gpd.GeoDataFrame:
    lines, kinds = [], []
    for x in np.arange(X0 + 500, X0 + WIDTH, 500):
        lines.append(LineString([(x, Y0), (x + rng.uniform(-150, 150), Y0 + HEIGHT)]))
        kinds.append("primary" if x % 1500 == 500 else "residential")
    for y in np.arange(Y0 + 500, Y0 + HEIGHT, 500):
        lines.append(LineString([(X0, y), (X0 + WIDTH / 2, y + rng.uniform(-80, 80)), (X0 + WIDTH, y)]))
        kinds.append("secondary" if y % 1500 == 500 else "residential")
    lines.append(LineString([(X0, Y0), (X0 + WIDTH, Y0 + HEIGHT)]))
    kinds.append("primary")
    clipped = [ln.intersection(boundary) for ln in lines]
    keep = [(g, k) for g, k in zip(clipped, kinds) if not g.is_empty and g.length > 100]
    geoms, kinds = zip(*keep)
    speed = {"primary": 50, "secondary": 40, "residential": 30}
    lanes = {"primary": 4, "secondary": 2, "residential": 2}
    names = [f"{STREET_STEMS[i % len(STREET_STEMS)]}straße {i // len(STREET_STEMS) + 1}" for i in range(len(geoms))]
    return gpd.GeoDataFrame(
        {
            "road_id": np.arange(1, len(geoms) + 1),
            "name": names,
            "type": list(kinds),
            "speed_limit": [speed[k] for k in kinds],
            "lanes": [lanes[k] for k in kinds],
        },
        geometry=list(geoms),
        crs=CRS,
    )


def random_points_in(rng, boundary: Polygon, n: int, cluster_centres=None, spread=600.0) -> list[Point]:
    """n points inside the boundary, optionally clustered around centres (rejection sampling)."""
    points = []
    while len(points) < n:
        if cluster_centres is not None and rng.random() < 0.7:
            cx, cy = cluster_centres[rng.integers(len(cluster_centres))]
            p = Point(cx + rng.normal(0, spread), cy + rng.normal(0, spread))
        else:
            p = Point(X0 + rng.uniform(0, WIDTH), Y0 + rng.uniform(0, HEIGHT))
        if boundary.contains(p):
            points.append(Point(round(p.x, 2), round(p.y, 2)))
    return points


def make_points(rng, boundary: Polygon) -> dict[str, gpd.GeoDataFrame]:
    centres = [(X0 + 1800, Y0 + 2600), (X0 + 4200, Y0 + 1500), (X0 + 3600, Y0 + 3900)]
    schools_pts = random_points_in(rng, boundary, 12)
    school_type = rng.choice(["primary", "secondary", "high"], 12, p=[0.5, 0.3, 0.2])
    schools = gpd.GeoDataFrame(
        {
            "school_id": np.arange(1, 13),
            "name": [f"{STREET_STEMS[i % 10]} {t.title()} School" for i, t in enumerate(school_type)],
            "type": school_type,
            "students": rng.integers(120, 1400, 12),
        },
        geometry=schools_pts,
        crs=CRS,
    )
    cafes_pts = random_points_in(rng, boundary, 40, centres, 400)
    cafes = gpd.GeoDataFrame(
        {
            "cafe_id": np.arange(1, 41),
            "name": [f"{CAFE_STEMS[i % 8]} {i + 1}" for i in range(40)],
            "rating": rng.uniform(2.5, 5.0, 40).round(1),
            "seats": rng.integers(8, 90, 40),
            "wifi": rng.choice(["yes", "no"], 40, p=[0.7, 0.3]),
        },
        geometry=cafes_pts,
        crs=CRS,
    )
    stops_pts = random_points_in(rng, boundary, 60)
    stops = gpd.GeoDataFrame(
        {
            "stop_id": np.arange(1, 61),
            "name": [f"Stop {STREET_STEMS[i % 10]} {i + 1}" for i in range(60)],
            "lines": [
                ",".join(sorted(map(str, rng.choice(np.arange(1, 13), rng.integers(1, 4), replace=False))))
                for _ in range(60)
            ],
            "shelter": rng.choice(["yes", "no"], 60),
        },
        geometry=stops_pts,
        crs=CRS,
    )
    houses_pts = random_points_in(rng, boundary, 1500, centres, 900)
    house_type = rng.choice(["detached", "terrace", "apartment"], 1500, p=[0.35, 0.35, 0.3])
    residents = np.where(house_type == "apartment", rng.integers(4, 40, 1500), rng.integers(1, 6, 1500))
    houses = gpd.GeoDataFrame(
        {
            "house_id": np.arange(1, 1501),
            "type": house_type,
            "residents": residents,
            "value_eur": (rng.lognormal(12.6, 0.35, 1500)).round(-3).astype(int),
            "year_built": rng.integers(1890, 2024, 1500),
        },
        geometry=houses_pts,
        crs=CRS,
    )
    return {"schools": schools, "cafes": cafes, "bus_stops": stops, "houses": houses}


def write_dem(path: Path, rng) -> None:
    """A 50 m DEM of gentle hills over the town (GeoTIFF, float32, EPSG:32633)."""
    from osgeo import gdal, osr

    res, nx, ny = 50.0, int(WIDTH / 50) + 20, int(HEIGHT / 50) + 20
    xs = X0 - 500 + (np.arange(nx) + 0.5) * res
    ys = Y0 + HEIGHT + 500 - (np.arange(ny) + 0.5) * res
    gx, gy = np.meshgrid(xs, ys)
    z = 120 + 0.004 * (gx - X0) + 0.002 * (gy - Y0)
    for cx, cy, h, s in [
        (X0 + 1500, Y0 + 3800, 80, 900),
        (X0 + 4700, Y0 + 1000, 55, 700),
        (X0 + 3000, Y0 + 2500, 30, 1500),
    ]:
        z += h * np.exp(-(((gx - cx) ** 2 + (gy - cy) ** 2) / (2 * s * s)))
    z += rng.normal(0, 0.4, z.shape)
    driver = gdal.GetDriverByName("GTiff")
    ds = driver.Create(str(path), nx, ny, 1, gdal.GDT_Float32, options=["COMPRESS=DEFLATE", "PREDICTOR=3"])
    ds.SetGeoTransform((X0 - 500, res, 0, Y0 + HEIGHT + 500, 0, -res))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(32633)
    ds.SetProjection(srs.ExportToWkt())
    band = ds.GetRasterBand(1)
    band.WriteArray(z.astype(np.float32))
    band.SetNoDataValue(-9999)
    ds = None


# The two-date imagery: 4 bands (blue, green, red, near infrared) as surface reflectance x 10000 (UInt16, 0 = no
# data), 10 m pixels over 5 x 4 parcels of 400 m. Each parcel has one land cover with the reflectances below
# (plus a little noise), so indices, classes and changes are known: see data/sample/README.md.
IMAGE_ORIGIN = (X0 + 1000.0, Y0 + 2600.0)  # north-west corner
IMAGE_PIXEL, IMAGE_PARCEL = 10.0, 40  # metres per pixel, pixels per parcel side
IMAGE_BANDS = ("blue", "green", "red", "nir")
REFLECTANCE = {  # blue, green, red, nir (x 10000)
    "water": (600, 800, 500, 200),
    "forest": (300, 600, 400, 4000),
    "crop": (500, 900, 700, 3500),
    "built-up": (1500, 1600, 1800, 2200),
    "bare": (1000, 1400, 2200, 3000),
}
PARCEL_COVER = [  # 2024, north row first
    ["forest", "forest", "crop", "crop", "built-up"],
    ["forest", "crop", "water", "crop", "built-up"],
    ["crop", "crop", "water", "forest", "built-up"],
    ["crop", "forest", "crop", "crop", "built-up"],
]
CLEARED_PARCEL = 6  # forest in 2024, bare soil in 2025
POND_PARCEL, POND_PIXELS = 9, 20  # a crop parcel with a new 200 m x 200 m pond at its centre in 2025
IMAGE_NOISE = 30.0


def parcel_cover(year: int) -> np.ndarray:
    """The land cover name of every pixel in `year` (2024 or 2025)."""
    rows, cols = len(PARCEL_COVER), len(PARCEL_COVER[0])
    n = IMAGE_PARCEL
    cover = np.empty((rows * n, cols * n), dtype=object)
    for r in range(rows):
        for c in range(cols):
            pid = r * cols + c + 1
            name = PARCEL_COVER[r][c]
            if year == 2025 and pid == CLEARED_PARCEL:
                name = "bare"
            cover[r * n : (r + 1) * n, c * n : (c + 1) * n] = name
            if year == 2025 and pid == POND_PARCEL:
                off = (n - POND_PIXELS) // 2
                cover[r * n + off : r * n + off + POND_PIXELS, c * n + off : c * n + off + POND_PIXELS] = "water"
    return cover


def image_nodata_mask(shape) -> np.ndarray:
    """The south-east corner lies outside the scene (no data on both dates): a triangle of parcel 20."""
    rows, cols = np.indices(shape)
    return (rows - (shape[0] - IMAGE_PARCEL)) + (cols - (shape[1] - IMAGE_PARCEL)) > IMAGE_PARCEL


def make_parcels() -> gpd.GeoDataFrame:
    """The 20 parcels of the imagery, with their 2024 land cover."""
    x0, y0 = IMAGE_ORIGIN
    side = IMAGE_PARCEL * IMAGE_PIXEL
    rows = []
    for r, names in enumerate(PARCEL_COVER):
        for c, name in enumerate(names):
            left, top = x0 + c * side, y0 - r * side
            poly = Polygon([(left, top), (left + side, top), (left + side, top - side), (left, top - side)])
            pid = r * len(names) + c + 1
            rows.append({"parcel_id": pid, "landcover": name, "area_ha": side * side / 1e4, "g": poly})
    return gpd.GeoDataFrame(rows, geometry="g", crs=CRS).rename_geometry("geometry")


def write_image(path: Path, year: int) -> None:
    """One date of the 4-band image (GeoTIFF, UInt16 reflectance x 10000, nodata 0, band descriptions)."""
    from osgeo import gdal, osr

    cover = parcel_cover(year)
    rng = np.random.default_rng(SEED + year)  # its own draws: the town's layers stay as they were
    nodata = image_nodata_mask(cover.shape)
    ny, nx = cover.shape
    ds = gdal.GetDriverByName("GTiff").Create(
        str(path), nx, ny, len(IMAGE_BANDS), gdal.GDT_UInt16, options=["COMPRESS=DEFLATE", "PREDICTOR=2"]
    )
    ds.SetGeoTransform((IMAGE_ORIGIN[0], IMAGE_PIXEL, 0, IMAGE_ORIGIN[1], 0, -IMAGE_PIXEL))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(32633)
    ds.SetProjection(srs.ExportToWkt())
    ds.SetMetadataItem("TIFFTAG_DATETIME", f"{year}:06:15 10:30:00")
    colours = (gdal.GCI_BlueBand, gdal.GCI_GreenBand, gdal.GCI_RedBand, gdal.GCI_Undefined)
    for i, band_name in enumerate(IMAGE_BANDS):
        base = np.vectorize(lambda name, i=i: REFLECTANCE[name][i], otypes=[float])(cover)
        values = np.clip(np.rint(base + rng.normal(0, IMAGE_NOISE, base.shape)), 1, 10000).astype(np.uint16)
        values[nodata] = 0
        band = ds.GetRasterBand(i + 1)
        band.WriteArray(values)
        band.SetNoDataValue(0)
        band.SetDescription(band_name)
        band.SetColorInterpretation(colours[i])
    ds = None


def convert_natural_earth(src: Path, out_dir: Path) -> None:
    """Natural Earth 1:110m countries and populated places (public domain) as GeoJSON in EPSG:4326."""
    countries = gpd.read_file(src / "naturalearth_lowres" / "naturalearth_lowres.shp").to_crs(4326)
    countries.to_file(out_dir / "countries.geojson", driver="GeoJSON")
    cities = gpd.read_file(src / "naturalearth_cities" / "naturalearth_cities.shp").to_crs(4326)
    cities.to_file(out_dir / "world_cities.geojson", driver="GeoJSON")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "data" / "sample"))
    parser.add_argument("--natural-earth", help="folder with naturalearth_lowres/ and naturalearth_cities/ shapefiles")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(SEED)
    boundary = town_boundary()
    layers = {"districts": make_districts(rng, boundary), "roads": make_roads(rng, boundary)}
    layers.update(make_points(rng, boundary))
    for name, gdf in layers.items():
        target = out / f"{name}.gpkg"
        target.unlink(missing_ok=True)
        gdf.to_file(target, driver="GPKG", layer=name, VERSION="1.2")  # readable without warnings by GDAL 3.6
    write_dem(out / "dem.tif", rng)
    parcels = make_parcels()
    (out / "parcels.gpkg").unlink(missing_ok=True)
    parcels.to_file(out / "parcels.gpkg", driver="GPKG", layer="parcels", VERSION="1.2")
    for year in (2024, 2025):
        write_image(out / f"image_{year}.tif", year)
    if args.natural_earth:
        convert_natural_earth(Path(args.natural_earth), out)
    summary = pd.DataFrame(
        [(n, len(g), g.geom_type.iloc[0]) for n, g in layers.items()], columns=["layer", "n", "type"]
    )
    print(summary.to_string(index=False))


if __name__ == "__main__":
    main()
