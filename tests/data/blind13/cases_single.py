"""blind13 single-step cases: plain operations, each/per, negation, output clauses, CRS, statistics, raster."""
from cases_def import (DEMF, DEMV, DT, F, F4, FND, LAB, LABF, R, R3, S, SIT, SNAME, T, TRA, TRE, UTM, Task, add,
                       c_area, c_crs, c_geomtype, c_len, c_num, c_suffix, counts_in, gpd, margin, np, nz, pd, t_ids,
                       t_num, t_pairs, t_vec, vec, geometry_mask)


def define_single():
    # s1 buffer trenches 20 m
    b = T.assign(geometry=T.buffer(20))
    add("plain", t_vec([c_len(36), c_area(b.area.sum())], b,
                       [("dissolved", gpd.GeoDataFrame(geometry=[b.union_all()], crs=UTM)),
                        ("20 ft", T.assign(geometry=T.buffer(6.096)))]),
        [TRE], {"numbers": ["20 m"]},
        en="Buffer the trenches by 20 m", de="Puffer die Schnitte um 20 Meter", zh="给探方做20米缓冲区")

    # s2 centroids of sites
    c = S.assign(geometry=S.centroid)
    chk = [c_len(8), c_geomtype("Point"),
           {"output": "vector", "expect": "float(out.to_crs(32633).geometry.x.mean())",
            "equals": repr(round(float(c.geometry.x.mean()), 1)), "abs": 1.0}]
    add("plain", t_vec(chk, c, [("polygons", S), ("one centroid", gpd.GeoDataFrame(geometry=[S.union_all().centroid],
                                                                                  crs=UTM))]),
        [SIT], {}, en=["centroids of the sites", "Create a centre point for every site"],
        zh="生成每个遗址的中心点")

    # s3 area of each site in ha
    m = dict(zip(S.site_id, S.area / 1e4))
    add("each_per", t_pairs(m, [("m2", dict(zip(S.site_id, S.area))), ("km2", {k: v / 100 for k, v in m.items()})],
                            n=8, key="site_id", val="area_ha"),
        [SIT], {"numbers": ["ha"]},
        en="Calculate the area of each site in hectares", de="Fläche jeder Fundstelle in Hektar berechnen")

    # s4 length of each transect (m)
    m = dict(zip(R.transect_id, R.len_m))
    add("each_per", t_pairs(m, [("km", {k: v / 1000 for k, v in m.items()}),
                                ("feet", {k: v * 3.28084 for k, v in m.items()})], n=14, rel=0.015,
                            key="transect_id", val="length_m"),
        [TRA], {"numbers": ["m"]},
        en=["What is the length of every transect in metres?"], zh="计算每条样线的长度，单位米")

    # s5 count finds per material
    m = F.material.value_counts().to_dict()
    add("each_per", t_pairs(m, [("per period", F.period.value_counts().to_dict()),
                                ("trench finds", F[F.context == "trench"].material.value_counts().to_dict())],
                            n=len(m), key="material", val="n"),
        [FND], {"fields": ["material"]},
        en=["count the finds per material", "number of finds by material"], de=["Anzahl der Funde je Material", 'Wie viele Funde gibt es pro Materialgruppe?'],
        zh="按材质统计遗物数量")

    # s6 finds that are not pottery
    np_ = F[F.material != "pottery"]
    add("negation", t_ids("find_id", np_, [("negation dropped", F[F.material == "pottery"]), ("all", F)]),
        [FND], {"fields": ["material"], "values": ["pottery"]},
        en=["Select all finds that are not pottery", "finds whose material isn't pottery"],
        de="Alle Funde auswählen, die keine Keramik (pottery) sind", zh=["选出材质不是陶器的遗物", '除了陶片以外的遗物都选出来'])

    # s7 trenches not backfilled
    nb = T[T.status != "backfilled"]
    add("negation", t_ids("trench_id", nb, [("negation dropped", T[T.status == "backfilled"]), ("all", T)],
                          as_str=True),
        [TRE], {"fields": ["status"], "values": ["backfilled"]},
        en=["trenches that have not been backfilled"], de=["Welche Schnitte sind nicht verfüllt?", 'Schnitte ohne Status backfilled auswählen'],
        zh="筛选未回填的探方（status不是backfilled）")

    # s8 sites to WGS84
    add("crs", Task([c_crs(4326), c_len(8), {"output": "vector", "expect": "round(float(out.total_bounds[0]), 3)",
                                              "equals": repr(round(float(S.to_crs(4326).total_bounds[0]), 3)),
                                              "abs": 0.001}],
                    lambda: vec(S, crs=4326),
                    [("not reprojected", lambda: vec(S)), ("assigned not transformed",
                                                           lambda: vec(S.set_crs(4326, allow_override=True)))]),
        [SIT], {"crs": 4326},
        en=["Reproject the sites to WGS84", "sites in EPSG:4326 please"], de="Fundstellen nach WGS 84 umprojizieren",
        zh="把遗址图层转换到WGS84坐标系")

    # s9 save transects as GeoJSON
    add("output_clause", Task([c_suffix(".geojson"), c_len(14)], lambda: vec(R3, name="transects.geojson"),
                              [("gpkg", lambda: vec(R3)), ("shp", lambda: vec(R3, name="transects.shp"))]),
        [TRA], {},
        en=["Save the transects as GeoJSON"], de="Transekte als GeoJSON speichern", zh="把样线保存成GeoJSON格式")

    # s10 sort trenches by depth, deepest first
    st = T.sort_values("depth_m", ascending=False)
    chk = [{"output": "vector", "expect": "out['trench_id'].astype(str).tolist()[:5]",
            "equals": repr(st.trench_id.tolist()[:5])}, c_len(36)]
    add("plain", t_vec(chk, st, [("ascending", T.sort_values("depth_m")), ("by opened", T.sort_values("opened"))]),
        [TRE], {"fields": ["depth_m"]},
        en=["sort the trenches by depth, deepest first"], de="Schnitte nach Tiefe absteigend sortieren")

    # s11 convex hull of all finds
    h = F.union_all().convex_hull
    add("plain", t_vec([c_len(1), c_area(h.area, 0.01)], gpd.GeoDataFrame(geometry=[h], crs=UTM),
                       [("bounding box", gpd.GeoDataFrame(geometry=[gpd.GeoSeries([h]).envelope.iloc[0]], crs=UTM)),
                        ("trench finds only", gpd.GeoDataFrame(geometry=[F[F.context == "trench"].union_all()
                                                                         .convex_hull], crs=UTM))]),
        [FND], {}, en=["Draw the convex hull around all finds"], zh="生成所有遗物点的凸包")

    # s12 dissolve sites by main_period
    d = S.dissolve("main_period").reset_index()
    chk = [c_len(d.shape[0]), {"output": "vector", "expect": "sorted(np.round(out.to_crs(32633).area / 1e4, 1).tolist())",
                               "equals": repr(sorted(np.round(d.area / 1e4, 1).tolist()))}]
    add("plain", t_vec(chk, d, [("not dissolved", S), ("by protected", S.dissolve("protected").reset_index())]),
        [SIT], {"fields": ["main_period"]},
        en=["Dissolve the sites by main_period"], de="Fundstellen nach main_period zusammenfassen (auflösen)",
        zh="按main_period融合遗址")

    # s13 join lab_dates to trenches
    m = dict(zip(LAB.trench_code, LAB.c14_bp))
    m = {k: v for k, v in m.items() if k in set(T.trench_id)}
    add("plain", t_pairs(m, [("wrong key (row order)", dict(zip(T.trench_id, LAB.c14_bp)))], key="trench_id",
                         val="c14_bp"),
        [TRE, LABF], {"layers": [TRE, LABF], "fields": ["trench_id", "trench_code"]},
        en=["Join lab_dates to the trenches using trench_code"], de="Tabelle lab_dates über trench_code an die Schnitte anhängen",
        zh="通过trench_code把lab_dates表连接到探方")

    # s14 mean weight of all finds
    add("statistics", t_num(F.weight_g.mean(), [("median", F.weight_g.median()), ("sum", F.weight_g.sum())],
                            rel=0.002),
        [FND], {"fields": ["weight_g"]},
        en=["What is the mean weight of the finds?"], de="Mittleres Fundgewicht?", zh="遗物的平均重量是多少？")

    # s15 zonal mean elevation per site
    zm = {}
    for _, s in S.iterrows():
        mask = ~geometry_mask([s.geometry], DEMV.shape, DT)
        zm[s.site_id] = float(np.nanmean(DEMV[mask]))
    zx = {}
    for _, s in S.iterrows():
        mask = ~geometry_mask([s.geometry], DEMV.shape, DT)
        zx[s.site_id] = float(np.nanmax(DEMV[mask]))
    add("raster", t_pairs(zm, [("max", zx), ("whole raster", {k: float(np.nanmean(DEMV)) for k in zm})], n=8,
                          abs_=1.0, rel=0, key="site_id", val="mean"),
        [SIT, DEMF], {"layers": [SIT, DEMF]},
        en=["mean elevation of each site from the DEM", "zonal statistics: average elevation per site"],
        de="Mittlere Höhe jeder Fundstelle aus elevation.tif", zh="计算每个遗址的平均高程（分区统计）")

    # s16 finds within 30 m of sites (layer) - select
    d = F.geometry.apply(lambda p: S.distance(p).min())
    margin(d[d > 0], 30, 0.5)
    w = F[d <= 30]
    add("plain", t_ids("find_id", w, [("inside only", F[d == 0]), ("farther", F[d > 30])]),
        [FND, SIT], {"layers": [FND, SIT], "numbers": ["30 m"]},
        en=["Select the finds within 30 m of a site"], zh="选出距离遗址30米以内的遗物")

    # s17 finds not within any site (negation, spatial)
    out_ = F[F.site_id.isna()]
    add("negation", t_ids("find_id", out_, [("negation dropped", F[F.site_id.notna()]), ("all", F)]),
        [FND, SIT], {"layers": [FND, SIT]},
        en=["Which finds are not inside any site? Extract them."], de="Funde, die außerhalb aller Fundstellen liegen")

    # s18 depth statistics (max)
    add("statistics", t_num(T.depth_m.max(), [("min", T.depth_m.min()), ("mean", T.depth_m.mean())]),
        [TRE], {"fields": ["depth_m"]},
        en=["maximum depth_m of the trenches"], zh="探方的最大深度是多少？")

    # s19 select metal finds
    add("plain", t_ids("find_id", F[F.material == "metal"], [("bone", F[F.material == "bone"]),
                                                            ("not metal", F[F.material != "metal"])]),
        [FND], {"fields": ["material"], "values": ["metal"]},
        en=["Select the metal finds"], de="Metallfunde selektieren", zh="选出金属遗物")

    # s20 top 5 heaviest finds
    top = F.sort_values("weight_g", ascending=False)
    assert top.weight_g.iloc[4] - top.weight_g.iloc[5] > 0.2
    add("plain", t_ids("find_id", top.head(5), [("lightest", F.sort_values("weight_g").head(5)),
                                                ("top 10", top.head(10))]),
        [FND], {"fields": ["weight_g"], "numbers": ["5"]},
        en=["the 5 heaviest finds"], de="Die fünf schwersten Funde", zh="最重的5件遗物")

    # s21 count trenches per status
    m = T.status.value_counts().to_dict()
    add("each_per", t_pairs(m, [("per supervisor", T.supervisor.value_counts().to_dict())], n=2, key="status",
                            val="n"),
        [TRE], {"fields": ["status"]},
        en=["Count the trenches per status"], zh="按状态统计探方个数")

    # s22 transects to 32633
    add("crs", Task([c_crs(UTM), c_len(14), {"output": "vector", "expect": "round(float(out.total_bounds[0]), 0)",
                                              "equals": repr(round(float(R.total_bounds[0]), 0)), "abs": 2}],
                    lambda: vec(R), [("not reprojected", lambda: vec(R3)),
                                     ("assigned", lambda: vec(R3.set_crs(UTM, allow_override=True)))]),
        [TRA], {"crs": 32633},
        en=["Reproject the transects from LAEA Europe to UTM zone 33N"], de="Transekte von EPSG:3035 nach EPSG:32633 transformieren",
        zh="把样线从EPSG:3035投影到EPSG:32633")

    # s23 sample elevation at surface finds
    surf = F[F.context == "surface"]
    rows, cols = rasterio_rowcol(surf)
    vals = DEMV[rows, cols]
    m = {int(k): float(v) for k, v in zip(surf.find_id, vals) if np.isfinite(v)}
    add("raster", t_pairs(m, [("all finds", {k: v + 5 for k, v in m.items()})], n=len(surf), abs_=2.5, rel=0,
                          key="find_id", val="elevation"),
        [FND, DEMF], {"layers": [FND, DEMF], "fields": ["context"], "values": ["surface"]},
        en=["Sample the elevation raster at the surface finds"])

    # s24 trenches with depth between 1 and 2 m
    margin(T.depth_m, 1.2, 0.03)
    margin(T.depth_m, 2.2, 0.03)
    b12 = T[(T.depth_m > 1.2) & (T.depth_m < 2.2)]
    add("plain", t_ids("trench_id", b12, [("> 1.2 only", T[T.depth_m > 1.2]), ("< 2.2 only", T[T.depth_m < 2.2])],
                       as_str=True),
        [TRE], {"fields": ["depth_m"], "numbers": ["1.2 m", "2.2 m"]},
        en=["trenches with a depth between 1.2 and 2.2 m"], de="Schnitte mit einer Tiefe zwischen 1,2 und 2,2 m",
        zh="深度在1.2米到2.2米之间的探方")

    # s25 count finds in each trench
    m = counts_in(T, F, "trench_id")
    add("each_per", t_pairs(m, [("per site", nz(counts_in(S, F, "site_id"))),
                                ("trench finds per site", {k: v + 1 for k, v in m.items()})], n=36,
                            key="trench_id", val="n"),
        [TRE, FND], {"layers": [TRE, FND]},
        en=["Count the finds in each trench", "how many finds per trench"],
        de="Zähle die Funde pro Schnitt", zh=["统计每个探方中的遗物数量", '每个探方里各有几件遗物'])

    # s26 sites discovered after 1990 that are NOT protected -> negation + filter
    margin(S.discovered, 2000, 2)
    q = S[(S.discovered > 2000) & (S.protected != "yes")]
    add("negation", t_ids("site_id", q, [("negation dropped", S[(S.discovered > 2000) & (S.protected == "yes")]),
                                         ("date dropped", S[S.protected != "yes"])]),
        [SIT], {"fields": ["discovered", "protected"], "numbers": ["2000"]},
        en=["sites discovered after 2000 that are not protected"], zh="2000年以后发现、而且不在保护名单上的遗址")

    # s27 sites as shapefile named sites_export.shp
    add("output_clause", Task([c_suffix("sites_export.shp"), c_len(8)], lambda: vec(S, name="sites_export.shp"),
                              [("other name", lambda: vec(S, name="sites.shp")), ("gpkg", lambda: vec(S))]),
        [SIT], {},
        en=["Export the sites to a shapefile called sites_export.shp"],
        de="Exportiere die Fundstellen als Shapefile mit dem Namen sites_export.shp")

    # s28 finds as CSV
    add("output_clause", Task([c_suffix(".csv", "any_table"), c_len(len(F), "any_table")],
                              lambda: vec_csv(), [("gpkg", lambda: vec(F4))]),
        [FND], {}, en=["Export the finds as a CSV table"], zh="把遗物导出为CSV表格")

    # s29 mean c14_bp per lab
    m = LAB.groupby("lab").c14_bp.mean().to_dict()
    add("statistics", t_pairs(m, [("median", LAB.groupby("lab").c14_bp.median().to_dict()),
                                  ("count", LAB.lab.value_counts().to_dict())], n=3, key="lab", val="mean"),
        [LABF], {"fields": ["lab", "c14_bp"]},
        en=["mean c14_bp per lab"], de="Durchschnittliches c14_bp je Labor")

    # s30 Voronoi-free: nearest site distance of each transect? -> distance sum of sherds per team
    m = R.groupby("team").sherds.sum().to_dict()
    add("each_per", t_pairs(m, [("mean", R.groupby("team").sherds.mean().to_dict())], n=3, key="team", val="sherds"),
        [TRA], {"fields": ["team", "sherds"]},
        en=["total sherds per team"], zh="每个小组的陶片（sherds）总数")

    # s31 transects walked in 2023 (date)
    y = R[R.walked_on.str[:4] == "2023"]
    add("plain", t_ids("transect_id", y, [("since 2023", R[R.walked_on.str[:4] >= "2023"]),
                                          ("before", R[R.walked_on.str[:4] < "2023"])], as_str=True),
        [TRA], {"fields": ["walked_on"], "numbers": ["2023"]},
        en=["transects walked in 2023"], de="Welche Transekte wurden 2023 begangen?")

    # s32 finds in EPSG:3035
    add("crs", Task([c_crs(3035), c_len(len(F))], lambda: vec(F4, crs=3035),
                    [("UTM", lambda: vec(F)), ("unchanged", lambda: vec(F4))]),
        [FND], {"crs": 3035},
        en=["Transform the finds into ETRS89-LAEA (EPSG:3035)"], zh="把遗物点转换到ETRS89 LAEA（EPSG:3035）")

    # s33 polygons to lines: trench outlines, total length = perimeters
    per = T.length.sum()
    chk = [c_len(36), c_geomtype("LineString"),
           {"output": "vector", "expect": "float(out.to_crs(32633).length.sum())", "equals": repr(round(per, 1)),
            "rel": 0.005}]
    add("plain", t_vec(chk, T.assign(geometry=T.boundary), [("polygons kept", T),
                                                            ("sites", S.assign(geometry=S.boundary))]),
        [TRE], {}, en=["Convert the trench polygons to their outlines (lines)"], de="Schnittflächen in Umrisslinien umwandeln")


def rasterio_rowcol(g):
    from rasterio.transform import rowcol
    r, c = rowcol(DT, g.geometry.x.values, g.geometry.y.values)
    return np.asarray(r), np.asarray(c)


def vec_csv():
    from cases_def import tab
    df = F4.assign(wkt=F4.geometry.to_wkt()).drop(columns="geometry")
    return tab(df)
