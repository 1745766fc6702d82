"""blind13 chain cases: two or three steps with references between the steps; checks on the final result."""
from cases_def import (DEMF, DEMV, DT, F, FND, LAB, LABF, R, S, SIT, SNAME, T, TRA, TRE, UTM, add, c_area, c_crs,
                       c_geomtype, c_ids, c_len, c_pairs, c_suffix, counts_in, gpd, margin, np, nz, pd, t_ids, t_num,
                       t_pairs, t_vec, tab, vec, Task, geometry_mask)


def define_chain():
    # ch1 buffer the open trenches by 25 m, count finds in each buffer
    op = T[T.status == "open"]
    b = op.copy()
    b["geometry"] = op.buffer(25)
    m = counts_in(b, F, "trench_id")
    ball = T.copy()
    ball["geometry"] = T.buffer(25)
    m_all = counts_in(ball, F, "trench_id")
    m_nobuf = counts_in(op, F, "trench_id")
    for g in op.geometry:
        margin(F.distance(g), 25, 0.5)
    assert m != m_nobuf
    add("chain", t_pairs(m, [("all trenches buffered", m_all), ("no buffer: finds in the trench", m_nobuf)],
                         n=len(op), key="trench_id", val="n_finds"),
        [TRE, FND], {"layers": [TRE, FND], "fields": ["status"], "values": ["open"], "numbers": ["25 m"]},
        en=["Buffer the open trenches by 25 m and count the finds inside each buffer",
            "select trenches with status open, make 25 m buffers around them, then count finds per buffer"],
        de=["Puffer die offenen Schnitte um 25 m und zähle anschließend die Funde in jedem Puffer", 'Um alle noch offenen Schnitte einen 25-m-Puffer legen und dann die Funde darin zählen, je Puffer'],
        zh=["把状态为open的探方做25米缓冲区，然后统计每个缓冲区内的遗物数量", '帮我给还没回填的探方各做一个25米缓冲，再数一数每个缓冲里有几件遗物'])

    # ch2 trenches inside Piano dei Greci deeper than 2 m -> ids
    p = T[(T.site_id == 3) & (T.depth_m > 2)]
    margin(T.depth_m, 2.0, 0.05)
    add("chain", t_ids("trench_id", p, [("depth dropped", T[T.site_id == 3]), ("site dropped", T[T.depth_m > 2]),
                                        ("shallower", T[(T.site_id == 3) & (T.depth_m < 2)])], as_str=True),
        [TRE, SIT], {"layers": [TRE, SIT], "fields": ["name", "depth_m"], "values": ["Piano dei Greci"],
                     "numbers": ["2 m"]},
        en=["Select the trenches that lie inside the site Piano dei Greci, then keep only those deeper than 2 m",
            "trenches within Piano dei Greci and of those the ones with depth_m above 2"],
        de="Wähle die Schnitte innerhalb der Fundstelle Piano dei Greci aus und behalte davon nur die mit mehr als 2 m Tiefe",
        zh="选出位于Piano dei Greci遗址内的探方，再从其中筛选深度大于2米的")

    # ch3 clip finds to protected sites, count per material
    prot = S[S.protected == "yes"]
    fp = F[F.site_id.isin(prot.site_id)]
    m = fp.material.value_counts().to_dict()
    m_all = F.material.value_counts().to_dict()
    m_unp = F[F.site_id.isin(S[S.protected == "no"].site_id)].material.value_counts().to_dict()
    add("chain", t_pairs(m, [("not clipped", m_all), ("unprotected sites", m_unp)], n=len(m), key="material",
                         val="count"),
        [FND, SIT], {"layers": [FND, SIT], "fields": ["protected", "material"], "values": ["yes"]},
        en=["Clip the finds to the protected sites and then count them per material",
            "keep only finds inside sites where protected is yes, then give the number of finds by material"],
        de="Funde auf die geschützten Fundstellen zuschneiden und danach die Anzahl je Material ermitteln",
        zh="把遗物裁剪到受保护（protected为yes）的遗址范围内，然后按材质统计数量")

    # ch4 Roman finds, count per site
    rom = F[F.period == "Roman"]
    m = nz(counts_in(S, rom, "name"))
    m_all = nz(counts_in(S, F, "name"))
    m_gr = nz(counts_in(S, F[F.period == "Greek"], "name"))
    add("chain", t_pairs(m, [("period dropped", m_all), ("Greek instead", m_gr)], key="name", val="n"),
        [FND, SIT], {"layers": [FND, SIT], "fields": ["period"], "values": ["Roman"]},
        en=["Filter the finds to the Roman period and then count how many fall in each site",
            "Take the Roman finds and count them per site polygon"],
        de=["Filtere die römischen Funde und zähle sie danach pro Fundstelle", 'Nur die Funde aus römischer Zeit nehmen, dann schauen, wie viele davon auf jede Fundstelle fallen'],
        zh="先筛选出罗马时期的遗物，再统计每个遗址里各有多少件")

    # ch5 reproject finds to UTM 33N, save as shapefile
    fshp = F[["find_id", "material", "geometry"]]
    add("chain", Task([c_crs(UTM), c_suffix(".shp"), c_len(len(F))], lambda: vec(fshp, name="finds_utm.shp"),
                      [("not reprojected", lambda: vec(F4s(), name="finds_wgs.shp")),
                       ("saved as gpkg", lambda: vec(fshp)),
                       ("UTM 32N", lambda: vec(fshp, name="finds_32.shp", crs=32632))]),
        [FND], {"fields": [], "crs": 32633},
        en=["Reproject the finds to WGS 84 / UTM zone 33N and save the result as a shapefile",
            "convert finds to EPSG:32633, then export them as .shp"],
        de="Projiziere die Funde nach EPSG:32633 und speichere das Ergebnis anschließend als Shapefile",
        zh="把遗物点转换到EPSG:32633坐标系，然后导出为shp文件")

    # ch6 Gamma transects, length in km
    g = R[R.team == "Gamma"]
    m = dict(zip(g.transect_id, g.len_m / 1000))
    add("chain", t_pairs(m, [("metres", dict(zip(g.transect_id, g.len_m))),
                             ("all teams", dict(zip(R.transect_id, R.len_m / 1000)))], n=len(g), rel=0.015,
                         key="transect_id", val="km"),
        [TRA], {"fields": ["team"], "values": ["Gamma"]},
        en=["Select the transects walked by team Gamma and compute the length of each in km",
            "Gamma team transects: their lengths in kilometres"],
        de="Transekte vom Team Gamma auswählen und dann für jedes die Länge in Kilometern berechnen",
        zh="选出Gamma小组走的样线，再计算每条的长度（公里）")

    # ch7 dissolve trenches by site, area m2 per site
    a = T.groupby("site_id").area.sum().to_dict()
    add("chain", t_pairs(a, [("hectares", {k: v / 1e4 for k, v in a.items()}),
                             ("site area instead", dict(zip(S.site_id, S.area)))], n=len(a), rel=0.01,
                         key="site_id", val="area_m2"),
        [TRE], {"fields": ["site_id"], "numbers": ["m²"]},
        en=["Dissolve the trenches by site_id and then calculate the area of each merged polygon in square metres"],
        de="Schnitte nach site_id zusammenführen (dissolve) und danach die Fläche jedes Ergebnisses in m² berechnen",
        zh="按site_id融合探方，然后计算每个融合后多边形的面积（平方米）")

    # ch8 buffer sites 200 m, surface finds inside
    sb = S.copy()
    sb["geometry"] = S.buffer(200)
    u = sb.union_all()
    surf = F[F.context == "surface"]
    margin(surf.distance(S.union_all()), 200, 3.0)
    inb = surf[surf.within(u)]
    nob = surf[surf.within(S.union_all())]
    allin = F[F.within(u)]
    assert len(inb) != len(nob)
    add("chain", t_ids("find_id", inb, [("no buffer", nob), ("context dropped", allin)]),
        [SIT, FND], {"layers": [SIT, FND], "fields": ["context"], "values": ["surface"], "numbers": ["200 m"]},
        en=["Buffer the sites by 200 m and then select the surface finds that fall inside those buffers",
            "make a 200 m zone around every site; which surface finds lie in it? give me them as a layer"],
        de="Erstelle einen 200-m-Puffer um die Fundstellen und wähle darin die Oberflächenfunde (context = surface) aus",
        zh=["对遗址做200米缓冲，然后选出落在缓冲区内的地表遗物（context为surface）", '遗址外扩200米，然后把落在外扩范围里的地表采集遗物选出来'])

    # ch9 finds within 100 m of transects, count per period
    ru = R.union_all()
    d = F.distance(ru)
    margin(d, 100, 1.5)
    near = F[d <= 100]
    m = near.period.value_counts().to_dict()
    m2 = F[d <= 50].period.value_counts().to_dict()
    add("chain", t_pairs(m, [("all finds", F.period.value_counts().to_dict()), ("50 m", m2)], n=len(m),
                         key="period", val="n"),
        [FND, TRA], {"layers": [FND, TRA], "fields": ["period"], "numbers": ["100 m"]},
        en=["Select the finds within 100 m of a transect and then count them per period"],
        de="Welche Funde liegen höchstens 100 m von einem Transekt entfernt? Zähle diese anschließend nach Periode",
        zh="选出距样线100米以内的遗物，然后按时期统计它们的数量")

    # ch10 join lab dates, trenches with c14_bp > 3000
    j = T.merge(LAB, left_on="trench_id", right_on="trench_code")
    margin(LAB.c14_bp, 3000, 20)
    sel = j[j.c14_bp > 3000]
    add("chain", t_ids("trench_id", sel, [("younger", j[j.c14_bp < 3000]), ("no join: all", T)], as_str=True),
        [TRE, LABF], {"layers": [TRE, LABF], "fields": ["trench_id", "trench_code", "c14_bp"],
                      "numbers": ["3000"]},
        en=["Join the lab dates to the trenches (trench_id = trench_code), then select the trenches with a c14_bp above 3000",
            "attach lab_dates to trenches via trench_code and keep those whose radiocarbon age is over 3000 BP"],
        de="Verknüpfe die Labordaten über trench_code mit den Schnitten und filtere danach die mit c14_bp über 3000",
        zh="把实验室测年表按trench_code连接到探方上，再筛选出c14_bp大于3000的探方")

    # ch11 centroids of trenches, save as GeoJSON in WGS84
    c = T.copy()
    c["geometry"] = T.centroid
    add("chain", Task([c_crs(4326), c_suffix(".geojson"), c_len(36), c_geomtype("Point")],
                      lambda: vec(c, name="trench_centroids.geojson", crs=4326),
                      [("polygons kept", lambda: vec(T, name="t.geojson", crs=4326)),
                       ("UTM kept", lambda: vec(c, name="c.geojson")),
                       ("gpkg", lambda: vec(c, crs=4326))]),
        [TRE], {"crs": 4326},
        en=["Compute the centroids of the trenches, reproject them to WGS84 and save them as GeoJSON",
            "trench centre points in EPSG:4326 as a geojson file"],
        de="Berechne die Schwerpunkte der Schnitte, transformiere sie nach WGS 84 und speichere sie als GeoJSON",
        zh=["计算探方的质心，转换到WGS84，然后保存为GeoJSON", '求每个探方的中心点，转成经纬度（WGS84）后存成geojson文件'])

    # ch12 spatial join finds with sites, count per site name (only finds inside sites)
    m = nz(counts_in(S, F, "name"))
    m_tr = nz(counts_in(S, F[F.context == "trench"], "name"))
    add("chain", t_pairs(m, [("trench finds only", m_tr), ("trenches counted", nz(counts_in(S, T.assign(
        geometry=T.centroid), "name")))], key="name", val="finds"),
        [FND, SIT], {"layers": [FND, SIT], "fields": ["name"]},
        en=["Give every find the name of the site it lies in, then count the finds per site name"],
        de=["Übertrage jedem Fund den Namen der Fundstelle, in der er liegt, und zähle dann die Funde je Fundstellenname", 'Hänge an die Funde per räumlicher Verknüpfung den Fundstellennamen an und zähl die dann nach Namen'],
        zh="给每件遗物加上所在遗址的名称，然后按遗址名称统计遗物数")

    # ch13 trenches opened after 2018, export as CSV
    margin(T.opened, 2018.5, 0.5)
    p = T[T.opened > 2018]
    add("chain", t_ids("trench_id", p, [("from 2018", T[T.opened >= 2018]), ("before", T[T.opened < 2018])],
                       as_str=True, kind="table", extra=[c_suffix(".csv", "any_table")]),
        [TRE], {"fields": ["opened"], "numbers": ["2018"]},
        en=["Select the trenches opened after 2018 and export them as a CSV file",
            "trenches with opened later than 2018 -> save to csv"],
        de="Schnitte, die nach 2018 geöffnet wurden, auswählen und als CSV exportieren",
        zh="筛选2018年之后开挖的探方，然后导出成CSV")

    # ch14 pottery finds, buffer 5 m, dissolve -> one polygon, area
    pot = F[F.material == "pottery"]
    u = pot.buffer(5).union_all()
    uall = F.buffer(5).union_all()
    add("chain", t_vec([c_len(1), c_area(u.area)], gpd.GeoDataFrame({"id": [1]}, geometry=[u], crs=UTM),
                       [("not dissolved", gpd.GeoDataFrame(geometry=pot.buffer(5), crs=UTM)),
                        ("all materials", gpd.GeoDataFrame({"id": [1]}, geometry=[uall], crs=UTM)),
                        ("10 m", gpd.GeoDataFrame({"id": [1]}, geometry=[pot.buffer(10).union_all()], crs=UTM))]),
        [FND], {"fields": ["material"], "values": ["pottery"], "numbers": ["5 m"]},
        en=["Filter the pottery finds, buffer them by 5 m and dissolve the buffers into one polygon"],
        de="Keramikfunde (material = pottery) herausfiltern, mit 5 m puffern und die Puffer zu einer Fläche verschmelzen",
        zh="筛选出陶器类遗物，做5米缓冲，再把缓冲区融合成一个面")

    # ch15 sites with trenches, area in ha
    w = S[S.site_id.isin(T.site_id)]
    m = dict(zip(w.name, w.area / 1e4))
    add("chain", t_pairs(m, [("all sites", dict(zip(S.name, S.area / 1e4))), ("m2", dict(zip(w.name, w.area)))],
                         n=len(w), key="name", val="area_ha"),
        [SIT, TRE], {"layers": [SIT, TRE], "numbers": ["ha"]},
        en=["Select the sites that contain at least one trench, then calculate their area in hectares",
            "which sites have trenches in them? compute the hectares of those"],
        de="Wähle die Fundstellen, die mindestens einen Schnitt enthalten, und berechne deren Fläche in Hektar",
        zh="选出至少包含一个探方的遗址，再计算它们的面积（公顷）")

    # ch16 clip transects to sites, total length
    cl = R.clip(S)
    tot = cl.length.sum()
    add("chain", t_num(tot, [("unclipped", R.len_m.sum()), ("km", tot / 1000)], rel=0.015),
        [TRA, SIT], {"layers": [TRA, SIT], "numbers": ["m"]},
        en=["Clip the transects to the sites and tell me the total length of what is left, in metres"],
        de="Schneide die Transekte mit den Fundstellen zu und gib mir danach die Gesamtlänge in Metern",
        zh="用遗址范围裁剪样线，然后告诉我裁剪后的总长度是多少米")

    # ch17 reproject transects to 32633 then buffer 50 m
    b = R.copy()
    b["geometry"] = R.buffer(50)
    add("chain", t_vec([c_crs(UTM), c_len(14), c_area(b.area.sum())], b,
                       [("not reprojected", lambda: vec(R3b())), ("100 m", b.assign(geometry=R.buffer(100)))],
                       ref_kw={}),
        [TRA], {"crs": 32633, "numbers": ["50 m"]},
        en=["Reproject the transects to EPSG:32633 and then buffer them by 50 m",
            "transects to UTM 33N (32633), then a 50 metre buffer around each"],
        de=["Transekte zuerst nach EPSG:32633 umprojizieren, dann mit 50 m puffern", 'Bring die Transekte in UTM 33N (32633) und puffere sie danach mit 50 Metern'],
        zh="先把样线投影到EPSG:32633，再做50米缓冲")

    # ch18 finds heavier than 100 g, count in each trench
    margin(F.weight_g, 120, 0.3)
    h = F[F.weight_g > 120]
    m = nz(counts_in(T, h, "trench_id"))
    add("chain", t_pairs(m, [("all finds", nz(counts_in(T, F, "trench_id"))),
                             ("lighter", nz(counts_in(T, F[F.weight_g < 120], "trench_id")))], key="trench_id",
                         val="n"),
        [FND, TRE], {"layers": [FND, TRE], "fields": ["weight_g"], "numbers": ["120 g"]},
        en=["Select the finds heavier than 120 g and count them in each trench"],
        de="Funde mit weight_g über 120 auswählen und davon die Anzahl pro Schnitt zählen",
        zh="选出重量超过120克的遗物，然后统计每个探方中它们的数量")

    # ch19 open trenches of Rossi, buffer 15 m
    p = T[(T.supervisor == "Rossi") & (T.status == "open")]
    p2 = T[T.supervisor == "Rossi"]
    add("chain", t_vec([c_len(len(p)), c_area(p.buffer(15).area.sum())], p.assign(geometry=p.buffer(15)),
                       [("status dropped", p2.assign(geometry=p2.buffer(15))),
                        ("no buffer", p)]),
        [TRE], {"fields": ["supervisor", "status"], "values": ["Rossi", "open"], "numbers": ["15 m"]},
        en=["Select the trenches supervised by Rossi that are still open, then buffer them by 15 m"],
        de="Schnitte von Rossi, die noch offen sind, auswählen und anschließend 15 m puffern",
        zh="选出Rossi负责且仍为open状态的探方，再做15米缓冲区")

    # ch20 count finds per trench, keep trenches with more than 12 finds
    cnt = counts_in(T, F, "trench_id")
    margin(cnt.values(), 12.5, 0.5)
    keep = T[T.trench_id.map(cnt) > 12]
    add("chain", t_ids("trench_id", keep, [("fewer", T[T.trench_id.map(cnt) < 12]),
                                            ("count skipped: area > 12", T[T.area > 12])], as_str=True),
        [TRE, FND], {"layers": [TRE, FND], "numbers": ["12"]},
        en=["Count the finds in each trench and then keep only the trenches with more than 12 finds",
            "number of finds per trench, then select those trenches where it exceeds 12"],
        de=["Zähle die Funde in jedem Schnitt und wähle dann die Schnitte mit mehr als 12 Funden aus", 'Funde pro Schnitt zählen, danach alle Schnitte mit mehr als zwölf Funden rausfiltern'],
        zh=["统计每个探方内的遗物数量，然后选出其中超过12件的探方", '每个探方出了几件东西？把超过12件的那些探方挑出来'])

    # ch21 zonal mean elevation per site, keep sites with mean above threshold
    zm = {}
    for _, s in S.iterrows():
        mask = ~geometry_mask([s.geometry], DEMV.shape, DT, invert=False)
        zm[s.site_id] = float(np.nanmean(DEMV[mask]))
    thr = 150
    margin(zm.values(), thr, 2.0)
    hi = S[S.site_id.map(zm) > thr]
    add("chain", t_ids("site_id", hi, [("below", S[S.site_id.map(zm) < thr]), ("all", S)]),
        [SIT, DEMF], {"layers": [SIT, DEMF], "numbers": ["150 m"]},
        en=["Compute the mean elevation of each site from the DEM and then select the sites whose mean is above 150 m"],
        de="Mittlere Höhe je Fundstelle aus dem Höhenmodell berechnen und dann die Fundstellen mit über 150 m auswählen",
        zh="根据高程栅格计算每个遗址的平均高程，然后选出平均高程高于150米的遗址")

    # ch22 finds from 2022 onwards, then those within Monte Grande
    sel = F[(F.year >= 2022) & (F.site_id == 1)]
    add("chain", t_ids("find_id", sel, [("date dropped", F[F.site_id == 1]), ("site dropped", F[F.year >= 2022]),
                                        ("after 2022", F[(F.year > 2022) & (F.site_id == 1)])]),
        [FND, SIT], {"layers": [FND, SIT], "fields": ["found_on", "name"], "values": ["Monte Grande"],
                     "numbers": ["2022"]},
        en=["Select the finds recovered in 2022 or later and, of those, the ones located in Monte Grande"],
        de="Funde ab 2022 (found_on) auswählen und davon nur die in der Fundstelle Monte Grande behalten",
        zh="筛选2022年及以后出土的遗物，再从中选出位于Monte Grande遗址内的")

    # ch23 backfilled trenches -> centroids -> count per site
    bf = T[T.status == "backfilled"]
    m = nz(bf.groupby("site_id").size().to_dict())
    m_all = T.groupby("site_id").size().to_dict()
    add("chain", t_pairs(m, [("status dropped", m_all),
                             ("open", T[T.status == "open"].groupby("site_id").size().to_dict())], key="site_id",
                         val="n"),
        [TRE, SIT], {"layers": [TRE, SIT], "fields": ["status"], "values": ["backfilled"]},
        en=["Take the backfilled trenches, convert them to centroid points and count those points per site"],
        de="Die verfüllten Schnitte (status backfilled) in Mittelpunkte umwandeln und diese je Fundstelle zählen",
        zh="把已回填（backfilled）的探方转成质心点，再统计每个遗址内有多少个点")

    # ch24 metal finds -> buffer 30 m -> count all finds in each buffer
    met = F[F.material == "metal"]
    mb = met.assign(geometry=met.buffer(30))
    for g in met.geometry:
        margin(F.distance(g), 30, 0.5)
    m = counts_in(mb, F, "find_id")
    add("chain", t_pairs(m, [("10 m", counts_in(met.assign(geometry=met.buffer(10)), F, "find_id")),
                             ("metal within metal", counts_in(mb, met, "find_id"))], n=len(met), key="find_id",
                         val="n"),
        [FND], {"fields": ["material"], "values": ["metal"], "numbers": ["30 m"]},
        en=["Buffer the metal finds by 30 m and count how many finds (of any material) lie in each buffer"],
        de="Um die Metallfunde einen 30-m-Puffer legen und dann zählen, wie viele Funde insgesamt in jedem Puffer liegen",
        zh="给金属遗物做30米缓冲，然后统计每个缓冲区内的全部遗物数量")

    # ch25 transects longer than 1.5 km -> reproject to WGS84 -> GeoJSON
    margin(R.len_m, 1500, 30)
    lg = R[R.len_m > 1500]
    add("chain", t_ids("transect_id", lg, [("shorter", R[R.len_m < 1500]), ("1 km", R[R.len_m > 1000])],
                       as_str=True, extra=[c_crs(4326), c_suffix(".geojson")],
                       ref_kw={"name": "long.geojson", "crs": 4326}),
        [TRA], {"numbers": ["1.5 km"], "crs": 4326},
        en=["Select the transects longer than 1.5 km, reproject them to EPSG:4326 and save them as GeoJSON"],
        de="Transekte über 1,5 km Länge auswählen, nach WGS84 umprojizieren und als GeoJSON abspeichern",
        zh="选出长度超过1.5公里的样线，转换为WGS84坐标并保存为GeoJSON")

    # ch26 Bronze Age finds inside Cozzo Olivo -> mean weight
    bz = F[(F.period == "Bronze Age") & (F.site_id == 4)]
    add("chain", t_num(bz.weight_g.mean(), [("all Cozzo Olivo", F[F.site_id == 4].weight_g.mean()),
                                            ("all Bronze Age", F[F.period == "Bronze Age"].weight_g.mean())],
                       rel=0.005),
        [FND, SIT], {"layers": [FND, SIT], "fields": ["period", "weight_g", "name"],
                     "values": ["Bronze Age", "Cozzo Olivo"]},
        en=["Select the Bronze Age finds, then those inside Cozzo Olivo, and give their mean weight"],
        de="Bronzezeitliche Funde auswählen, davon die in Cozzo Olivo, und dann das mittlere Gewicht angeben",
        zh=["先选出青铜时代的遗物，再取其中位于Cozzo Olivo的，然后算它们的平均重量", 'Cozzo Olivo遗址里青铜时代的遗物，平均每件多重？先筛时期，再按遗址范围选，最后求平均'])

    # ch27 trenches not backfilled -> sort by depth -> top 3
    op = T[T.status != "backfilled"].sort_values("depth_m", ascending=False).head(3)
    add("chain", t_ids("trench_id", op, [("all trenches", T.sort_values("depth_m", ascending=False).head(3)),
                                         ("shallowest", T[T.status != "backfilled"].sort_values("depth_m").head(3))],
                       as_str=True),
        [TRE], {"fields": ["status", "depth_m"], "values": ["backfilled"], "numbers": ["3"]},
        en=["Filter out the backfilled trenches, then give me the 3 deepest of the remaining ones"],
        de="Alle nicht verfüllten Schnitte nehmen und davon die 3 tiefsten auswählen",
        zh="排除已回填的探方，再从剩下的里面选出最深的3个")

    # ch28 finds per trench -> join -> area-normalised? -> count per supervisor (three steps)
    cnt = counts_in(T, F, "trench_id")
    per = T.assign(n=T.trench_id.map(cnt)).groupby("supervisor").n.sum().to_dict()
    per_tr = T.groupby("supervisor").size().to_dict()
    add("chain", t_pairs(per, [("trenches counted", per_tr)], n=len(per), key="supervisor", val="finds"),
        [TRE, FND], {"layers": [TRE, FND], "fields": ["supervisor"]},
        en=["Count the finds in each trench, then sum those counts per supervisor"],
        de="Zähle die Funde je Schnitt und summiere diese Zahlen anschließend pro Grabungsleiter (supervisor)",
        zh="先统计每个探方内的遗物数，再按负责人（supervisor）汇总这些数量")

    # ch29 surface finds -> nearest trench distance -> mean
    surf = F[F.context == "surface"]
    d = surf.geometry.apply(lambda p: T.distance(p).min())
    add("chain", t_num(d.mean(), [("all finds", F.geometry.apply(lambda p: T.distance(p).min()).mean()),
                                  ("km", d.mean() / 1000)], rel=0.01),
        [FND, TRE], {"layers": [FND, TRE], "fields": ["context"], "values": ["surface"], "numbers": ["m"]},
        en=["For the surface finds, measure the distance to the nearest trench and report the average in metres"],
        de="Für die Oberflächenfunde den Abstand zum nächsten Schnitt bestimmen und den Mittelwert in Metern angeben",
        zh="对地表遗物，计算每件到最近探方的距离，然后给出平均值（米）")

    # ch30 sites in WGS84 -> area in ha (CRS in degrees)
    m = dict(zip(S.name, S.area / 1e4))
    add("chain", t_pairs(m, [("square degrees", dict(zip(S.name, S.to_crs(4326).area))),
                             ("m2", dict(zip(S.name, S.area)))], n=8, rel=0.01, key="name", val="ha"),
        [SIT], {"crs": 4326, "numbers": ["ha"]},
        en=["Reproject the sites to WGS84 and then compute the area of each in hectares"],
        de="Fundstellen nach WGS84 transformieren und anschließend die Fläche jeder Fundstelle in ha berechnen",
        zh="把遗址转换到WGS84，然后计算每个遗址的面积（公顷）")

    # ch31 Beta transects -> buffer 100 m -> count finds in each
    bt = R[R.team == "Beta"]
    for g in bt.geometry:
        margin(F.distance(g), 100, 1.5)
    m = counts_in(bt.assign(geometry=bt.buffer(100)), F, "transect_id")
    add("chain", t_pairs(m, [("all teams", counts_in(R.assign(geometry=R.buffer(100)), F, "transect_id")),
                             ("50 m", counts_in(bt.assign(geometry=bt.buffer(50)), F, "transect_id"))],
                         n=len(bt), key="transect_id", val="n"),
        [TRA, FND], {"layers": [TRA, FND], "fields": ["team"], "values": ["Beta"], "numbers": ["100 m"]},
        en=["Select team Beta's transects, buffer them by 100 m and count the finds in each buffer"],
        de="Transekte von Team Beta auswählen, 100 m puffern und danach die Funde in jedem Puffer zählen",
        zh=["选出Beta小组的样线，做100米缓冲区，再统计每个缓冲区内的遗物数量", 'Beta组的样线两侧各100米范围内分别有多少遗物？先缓冲再统计'])

    # ch32 glass finds -> within which site -> count per site id
    gl = F[F.material == "glass"]
    m = nz(counts_in(S, gl, "site_id"))
    add("chain", t_pairs(m, [("all materials", nz(counts_in(S, F, "site_id"))),
                             ("bone", nz(counts_in(S, F[F.material == "bone"], "site_id")))], key="site_id",
                         val="n"),
        [FND, SIT], {"layers": [FND, SIT], "fields": ["material"], "values": ["glass"]},
        en=["Extract the glass finds and count them in each site"],
        de=["Glasfunde extrahieren und anschließend je Fundstelle zählen", 'Zieh die Glasfunde raus und zähl sie dann pro Fundstelle'],
        zh="提取玻璃类遗物，然后统计每个遗址中有几件")


def F4s():
    from cases_def import F4
    return F4[["find_id", "material", "geometry"]]


def R3b():
    from cases_def import R3
    return R3.assign(geometry=R3.buffer(50))
