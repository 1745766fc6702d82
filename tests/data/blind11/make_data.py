"""blind11 data: Valmont-sur-Lez, a made-up mid-size city in southern France (near Montpellier).

Deterministic (seed 20261111, OGR_CURRENT_DATE fixed): two runs give byte-identical files.
    nice -n 10 /work/main/.venv/bin/python make_data.py
"""
import os

os.environ["OGR_CURRENT_DATE"] = "2026-11-11T00:00:00Z"
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import rasterio
from rasterio.transform import from_origin
from shapely import affinity
from shapely.geometry import LineString, Point, box

SEED = 20261111
OUT = Path(__file__).resolve().parent / "data"
X0, Y0, W, H = 765000.0, 6276000.0, 8000.0, 6000.0   # Lambert-93 (EPSG:2154), SW corner
L93 = 2154


def km(x, y):
    return (X0 + 1000 * x, Y0 + 1000 * y)


def write(gdf, name, crs):
    path = OUT / name
    if path.exists():
        path.unlink()
    gdf.to_crs(crs).to_file(path, layer=path.stem, driver="GPKG", engine="pyogrio")


def main():
    rng = np.random.default_rng(SEED)
    OUT.mkdir(exist_ok=True)

    # neighbourhoods: 4 x 3 grid of 2 km squares, nb_id 1-12 row by row from the north-west
    names = ["Mosson", "Les Arceaux", "Boutonnet", "Millenaire",
             "Celleneuve", "Old Town", "Station Quarter", "Port Marianne",
             "Croix d'Argent", "Pres d'Arenes", "Lemasson", "Odysseum"]
    zones = [3, 2, 2, 3, 2, 1, 1, 2, 3, 2, 2, 3]
    pops = [9800, 14200, 12000, 7600, 15100, 18900, 16400, 13300, 8700, 12000, 11900, 6900]
    incomes = [17800, 22500, 24100, 26900, 19600, 23800, 21000, 29400, 18900, 21000, 20400, 27300]
    rows = []
    for i in range(12):
        r, c = divmod(i, 4)
        x = X0 + 2000 * c
        y = Y0 + H - 2000 * (r + 1)
        rows.append(dict(nb_id=i + 1, name=names[i], fare_zone=zones[i], population=pops[i],
                         median_income=incomes[i], geometry=box(x, y, x + 2000, y + 2000)))
    nb = gpd.GeoDataFrame(rows, crs=L93)
    write(nb, "neighbourhoods.gpkg", L93)

    # transit lines
    defs = [
        ("1", "Line 1", "tram", 12, "yes", [(0.2, 3.1), (2, 3.3), (4, 3.05), (6, 2.9), (7.8, 3.2)]),
        ("2", "Line 2", "tram", 10, "yes", [(0.5, 0.4), (2.5, 1.8), (4.1, 3.0), (5.5, 4.4), (7.5, 5.6)]),
        ("3", "Line 3", "tram", 8, "no", [(3.6, 5.8), (3.9, 4.2), (4.2, 2.5), (4.0, 0.3)]),
        ("A", "Metro A", "metro", 15, "yes", [(1.0, 5.0), (3.0, 4.6), (5.0, 3.5), (7.0, 1.0)]),
        ("10", "Bus 10", "bus", 6, "yes", [(0.3, 5.5), (2.5, 5.2), (5.0, 5.5), (7.7, 4.8)]),
        ("11", "Bus 11", "bus", 4, "no", [(0.3, 1.5), (3, 0.8), (6, 1.3), (7.8, 0.6)]),
        ("12", "Bus 12", "bus", 6, "no", [(1.2, 0.2), (1.4, 2.5), (1.1, 5.8)]),
        ("14", "Bus 14", "bus", 3, "no", [(6.5, 0.2), (6.2, 2.8), (6.8, 5.8)]),
        ("15", "Bus 15", "bus", 2, "no", [(2.0, 2.2), (3.2, 2.0), (5.0, 2.2), (5.6, 2.0)]),
        ("17", "Bus 17", "bus", 5, "no", [(4.6, 4.0), (5.2, 4.9), (5.9, 5.7)]),
    ]
    lines = gpd.GeoDataFrame(
        [dict(line=d[0], name=d[1], mode=d[2], frequency=d[3], night_service=d[4],
              geometry=LineString([km(*p) for p in d[5]])) for d in defs], crs=L93)
    write(lines, "lines.gpkg", 3857)

    # parks (EPSG:3857 on disk), true areas in ha
    pdefs = [("Central Park", 12.4, (3.0, 3.9), "yes"), ("Station Park", 8.1, (5.1, 2.5), "yes"),
             ("Peyrou Gardens", 5.3, (2.9, 2.6), "no"), ("Lez River Park", 4.8, (6.9, 3.7), "yes"),
             ("Meric Park", 3.2, (4.9, 5.0), "no"), ("Montcalm Park", 2.1, (1.6, 1.2), "yes"),
             ("Grammont Park", 6.6, (7.2, 1.9), "no"), ("Arceaux Square", 1.5, (2.6, 4.9), "no")]
    prow = []
    for i, (n, ha, c, pg) in enumerate(pdefs):
        a = ha * 10000
        w = np.sqrt(a * 1.6)
        h = a / w
        cx, cy = km(*c)
        g = affinity.rotate(box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), float(rng.uniform(-30, 30)))
        prow.append(dict(park_id=i + 1, name=n, playground=pg, geometry=g))
    parks = gpd.GeoDataFrame(prow, crs=L93)
    write(parks, "parks.gpkg", 3857)

    # stops along the lines
    xb = [X0 + 2000 * k for k in range(5)]
    yb = [Y0 + 2000 * k for k in range(4)]
    pts = []
    for d, geom in zip(defs, lines.geometry):
        step = 700 if d[2] != "bus" else 900
        for s in np.arange(step * 0.5, geom.length, step):
            p = geom.interpolate(float(s))
            p = Point(p.x + rng.uniform(-8, 8), p.y + rng.uniform(-8, 8))
            if min(abs(p.x - v) for v in xb) < 30 or min(abs(p.y - v) for v in yb) < 30:
                continue
            if any(p.distance(q) < 90 for q, _ in pts):
                continue
            if any(abs(p.distance(pg.exterior)) < 20 for pg in parks.geometry):
                continue
            pts.append((p, d[2]))
    stop_names = ["Comedie", "Corum", "Louis Blanc", "Beaux-Arts", "Saint-Lazare", "Place Albert 1er",
                  "Peyrou", "Observatoire", "Gare Saint-Roch", "Rives du Lez", "Moulares", "Port Marianne",
                  "Rondelet", "Nouveau Saint-Roch", "Voltaire", "Place de l'Europe", "Antigone",
                  "Leon Blum", "Pompignane", "Millenaire", "Odysseum", "Place de France", "Mondial 98",
                  "Consuls de Mer", "Charpak", "Boutonnet", "Stade Philippidès", "Universite",
                  "Saint-Eloi", "Occitanie", "Malbosc", "Euromedecine", "Mosson", "Celleneuve",
                  "Pilory", "Halles de la Paillade", "Saint-Paul", "Hauts de Massane", "Croix d'Argent",
                  "Mas Drevon", "Lemasson", "Sabines", "Garcia Lorca", "Jeu de Mail", "Restanque",
                  "Figuerolles", "Gambetta", "Clemenceau", "Saint-Denis", "Nouveau Monde", "Pas du Loup",
                  "Estanove", "Ovalie", "Chamberte", "Saint-Cleophas", "Aiguelongue", "Jacou",
                  "Hopital Lapeyronie", "Vert Bois", "Saint-Priest", "Pergola", "Tonnelles", "Cite Mion",
                  "Aiguerelles", "Marie Caizergues", "Petit Bard", "Pere Soulas", "Las Rebes",
                  "Bouisses", "Grisettes", "Lepic", "Jules Guesde"]
    stops = []
    for i, (p, mode) in enumerate(pts):
        served = sorted([d[0] for d, g in zip(defs, lines.geometry) if g.distance(p) < 30],
                        key=lambda s: (not s.isdigit() or int(s) >= 10, s.isdigit() and int(s), s))
        stops.append(dict(stop_id=i + 1, name=stop_names[i], mode=mode, lines=",".join(served),
                          accessible="yes" if rng.random() < 0.6 else "no",
                          boardings=int(rng.integers(20, 400) * 10 + rng.integers(0, 10)), geometry=p))
    st = gpd.GeoDataFrame(stops, crs=L93)
    # named stops sharing words with layers / lines
    st.loc[st.index[20], "name"] = "Park Station"
    st.loc[st.index[4], "name"] = "Line 1 Terminus"
    # thresholds at data values
    for k, v in [(3, 1500), (11, 1500), (27, 1500), (8, 2000), (33, 2000)]:
        st.loc[st.index[k], "boardings"] = v
    write(st, "stops.gpkg", 4326)

    # hospitals and clinics (EPSG:2154)
    hdefs = [("Hospital North", "general", 300, "yes", (3.3, 5.4)),
             ("Lapeyronie Hospital", "general", 820, "yes", (1.9, 4.4)),
             ("Saint-Eloi Hospital", "general", 540, "yes", (4.55, 3.45)),
             ("Arnaud de Villeneuve Hospital", "general", 410, "no", (6.3, 4.3)),
             ("Gui de Chauliac Hospital", "general", 650, "yes", (2.6, 1.45)),
             ("Clinic of the Park", "clinic", 120, "no", (5.4, 2.75)),
             ("Beau Soleil Clinic", "clinic", 300, "yes", (1.3, 3.6)),
             ("Millenaire Clinic", "clinic", 85, "no", (7.1, 5.3)),
             ("Saint-Roch Clinic", "clinic", 160, "no", (4.7, 0.9)),
             ("Euromedecine Clinic", "clinic", 301, "no", (0.7, 2.5))]
    hosp = gpd.GeoDataFrame([dict(hosp_id=i + 1, name=n, type=t, beds=b, emergency=e, geometry=Point(km(*c)))
                             for i, (n, t, b, e, c) in enumerate(hdefs)], crs=L93)
    write(hosp, "hospitals.gpkg", L93)

    # bike-share docks: CSV with x/y in Lambert-93 (no CRS in the file)
    caps = [10, 12, 15, 20, 24, 30]
    drows = []
    for i in range(30):
        while True:
            x, y = X0 + rng.uniform(300, W - 300), Y0 + rng.uniform(300, H - 300)
            if min(abs(x - v) for v in xb) > 40 and min(abs(y - v) for v in yb) > 40:
                break
        drows.append(dict(dock_id=i + 1, name=f"Velomont {i + 1:02d}", x=round(x, 2), y=round(y, 2),
                          capacity=int(caps[rng.integers(0, 6)]), electric="yes" if rng.random() < 0.4 else "no"))
    docks = pd.DataFrame(drows)
    for k in (2, 9, 17):
        docks.loc[k, "capacity"] = 20
    docks.to_csv(OUT / "bike_docks.csv", index=False, lineterminator="\n")

    # ridership table (no geometry) keyed by stop_ref (= stop_id)
    ids = st["stop_id"].tolist()
    missing = set(ids[k] for k in (6, 15, 30, 44))
    rrows = [dict(stop_ref=s, weekday_avg=int(b * rng.uniform(0.95, 1.25)), weekend_avg=int(b * rng.uniform(0.4, 0.7)),
                  complaints=int(rng.integers(0, 15)))
             for s, b in zip(ids, st["boardings"]) if s not in missing]
    rrows += [dict(stop_ref=201, weekday_avg=900, weekend_avg=400, complaints=2),
              dict(stop_ref=202, weekday_avg=1250, weekend_avg=610, complaints=5)]
    pd.DataFrame(rrows).to_csv(OUT / "ridership_2025.csv", index=False, lineterminator="\n")

    # noise raster: Lden in dB, 25 m cells, float32, nodata -9999
    cell = 25.0
    ncol, nrow = int(W / cell), int(H / cell)
    xs = X0 + cell * (np.arange(ncol) + 0.5)
    ys = Y0 + H - cell * (np.arange(nrow) + 0.5)
    gx, gy = np.meshgrid(xs, ys)
    import shapely
    cells = shapely.points(gx.ravel(), gy.ravel())
    noise = np.full(gx.size, 42.0)
    for d, g in zip(defs, lines.geometry):
        amp = {"tram": 22.0, "metro": 14.0, "bus": 18.0}[d[2]]
        noise = np.maximum(noise, 42.0 + amp * np.exp(-shapely.distance(cells, g) / 180.0))
    noise = noise.reshape(gy.shape) + rng.normal(0, 0.8, gy.shape)
    noise = noise.astype("float32")
    noise[200:220, 280:300] = -9999.0  # a gap (no survey), south-east
    prof = dict(driver="GTiff", width=ncol, height=nrow, count=1, dtype="float32", crs="EPSG:2154",
                transform=from_origin(X0, Y0 + H, cell, cell), nodata=-9999.0, compress="deflate")
    with rasterio.open(OUT / "noise_lden.tif", "w", **prof) as dst:
        dst.write(noise, 1)
    print(len(st), "stops", st["mode"].value_counts().to_dict())


if __name__ == "__main__":
    main()
