"""blind13 implied-step cases: questions whose steps are implied (which … most, how many …, share, per …)."""
from cases_def import (DEMF, DEMV, DT, F, FND, LAB, LABF, R, S, SIT, SNAME, T, TRA, TRE, UTM, add, counts_in, gpd,
                       margin, np, nz, pd, t_ids, t_name, t_num, t_pairs, top_gap, geometry_mask)


def define_implied():
    # im1 which period has the most finds
    k, v, k2, v2 = top_gap(F.period.value_counts(), 3)
    add("implied", t_name(k, [("runner-up", k2, v2), ("fewest", F.period.value_counts().index[-1], None)]),
        [FND], {"fields": ["period"]},
        en=["Which period has the most finds?", "what period are most of the finds from"],
        de=["Aus welcher Periode stammen die meisten Funde?", 'Welche Epoche ist unter den Funden am häufigsten vertreten?'],
        zh=["哪个时期的遗物最多？", '出土遗物最多的是哪个时期'])

    # im2 trenches opened before 2015
    margin(T.opened, 2014.5, 0.5)
    n = int((T.opened < 2015).sum())
    add("implied", t_num(n, [("<= 2015", (T.opened <= 2015).sum()), ("after", (T.opened > 2015).sum())]),
        [TRE], {"fields": ["opened"], "numbers": ["2015"]},
        en=["How many trenches were opened before 2015?"],
        de=["Wie viele Schnitte wurden vor 2015 angelegt?", 'wieviele Schnitte gibts, die vor 2015 aufgemacht wurden'],
        zh=["2015年以前开挖的探方有多少个？", '2015年前开的探方一共几个'])

    # im3 transects longer than 1 km (layer)
    margin(R.len_m, 1000, 30)
    lg = R[R.len_m > 1000]
    add("implied", t_ids("transect_id", lg, [("shorter", R[R.len_m < 1000]), ("1 mile", R[R.len_m > 1609.3])],
                         as_str=True),
        [TRA], {"numbers": ["1 km"]},
        en=["Show the transects longer than 1 km", "transects over a kilometre long"],
        de="Zeig mir die Transekte, die länger als 1 km sind",
        zh="显示长度超过1公里的样线")

    # im4 share of Monte Grande excavated (%)
    s1 = S[S.site_id == 1].geometry.iloc[0]
    ta = T[T.site_id == 1].area.sum()
    share = 100 * ta / s1.area
    add("implied", t_num(share, [("share of all sites", 100 * T.area.sum() / S.area.sum()),
                                 ("fraction not %", share / 100), ("per mille", share * 10)], abs_=0.006),
        [SIT, TRE], {"layers": [SIT, TRE], "values": ["Monte Grande"]},
        en=["What percentage of the Monte Grande site has been excavated (trench area / site area)?"],
        de="Wie viel Prozent der Fundstelle Monte Grande sind durch Schnitte ausgegraben?",
        zh="Monte Grande遗址被探方发掘的面积占百分之多少？")

    # im5 mean trench depth per site
    m = T.groupby("site_id").depth_m.mean().to_dict()
    add("implied", t_pairs(m, [("max depth", T.groupby("site_id").depth_m.max().to_dict()),
                               ("per supervisor", T.groupby("supervisor").depth_m.mean().to_dict())], n=len(m),
                           key="site_id", val="mean_depth"),
        [TRE], {"fields": ["depth_m", "site_id"]},
        en=["the mean trench depth per site", "average depth_m of the trenches for every site_id"],
        de="Durchschnittliche Schnitttiefe je Fundstelle (site_id)",
        zh="每个遗址（site_id）探方的平均深度")

    # im6 the 3 surface finds nearest to trench T07
    t7 = T[T.trench_id == "T07"].geometry.iloc[0]
    surf = F[F.context == "surface"].copy()
    surf["d"] = surf.distance(t7)
    ss = surf.sort_values("d")
    assert ss.d.iloc[3] - ss.d.iloc[2] > 5, ss.d.head(5)
    allf = F.assign(d=F.distance(t7)).sort_values("d")
    add("implied", t_ids("find_id", ss.head(3), [("any context", allf.head(3)), ("5 nearest", ss.head(5))]),
        [FND, TRE], {"layers": [FND, TRE], "fields": ["context"], "values": ["surface", "T07"], "numbers": ["3"]},
        en=["the 3 surface finds closest to trench T07"],
        de="Welche 3 Oberflächenfunde liegen am nächsten an Schnitt T07?",
        zh="离探方T07最近的3件地表遗物")

    # im7 which site has the most trenches
    c = T.site_id.map(SNAME).value_counts()
    k, v, k2, v2 = top_gap(c, 2)
    add("implied", t_name(k, [("runner-up", k2, None)]), [TRE, SIT], {"layers": [TRE, SIT]},
        en=["Which site has the most trenches?"],
        de="In welcher Fundstelle liegen die meisten Schnitte?",
        zh="哪个遗址的探方最多？")

    # im8 finds found in 2021
    n = int((F.year == 2021).sum())
    add("implied", t_num(n, [("since 2021", (F.year >= 2021).sum()), ("before 2021", (F.year < 2021).sum())]),
        [FND], {"fields": ["found_on"], "numbers": ["2021"]},
        en=["How many finds were recovered in 2021?"],
        de="Wie viele Funde sind 2021 geborgen worden?",
        zh="2021年出土了多少件遗物？")

    # im9 total weight of metal finds in kg
    w = F[F.material == "metal"].weight_g.sum()
    add("implied", t_num(w / 1000, [("grams", w), ("all finds kg", F.weight_g.sum() / 1000)], rel=0.01),
        [FND], {"fields": ["material", "weight_g"], "values": ["metal"], "numbers": ["kg"]},
        en=["What do the metal finds weigh in total, in kg?"],
        de="Wie schwer sind alle Metallfunde zusammen in Kilogramm?",
        zh=["金属遗物总共重多少公斤？", '金属器加起来一共几公斤'])

    # im10 which team walked the longest total distance
    tl = R.groupby("team").len_m.sum()
    k, v, k2, v2 = top_gap(tl, 200)
    add("implied", t_name(k, [("most transects", R.team.value_counts().index[0] if R.team.value_counts().index[0] != k
                                else k2, None), ("runner-up", k2, None)]),
        [TRA], {"fields": ["team"]},
        en=["Which team walked the longest total transect length?"],
        zh="哪个小组走过的样线总长度最长？")

    # im11 finds within 50 m of a transect
    d = F.distance(R.union_all())
    margin(d, 60, 1.0)
    n = int((d <= 60).sum())
    add("implied", t_num(n, [("150 m", (d <= 150).sum()), ("60 ft", (d <= 18.29).sum())]),
        [FND, TRA], {"layers": [FND, TRA], "numbers": ["60 m"]},
        en=["How many finds lie within 60 m of a transect?"],
        de="Wie viele Funde liegen im Umkreis von 60 m um die Transekte?",
        zh="距离样线60米以内的遗物有几件？")

    # im12 supervisor with most trenches
    k, v, k2, v2 = top_gap(T.supervisor.value_counts(), 1)
    add("implied", t_name(k, [("runner-up", k2, None)], number=None), [TRE], {"fields": ["supervisor"]},
        en=["Who supervised the most trenches?"],
        de="Welcher Grabungsleiter hat die meisten Schnitte betreut?")

    # im13 mean c14 age from Oxford
    ox = LAB[LAB.lab == "Oxford"].c14_bp.mean()
    add("implied", t_num(ox, [("all labs", LAB.c14_bp.mean()), ("Zurich", LAB[LAB.lab == "Zurich"].c14_bp.mean())],
                         rel=0.002),
        [LABF], {"fields": ["lab", "c14_bp"], "values": ["Oxford"]},
        en=["What is the average c14_bp of the samples measured in Oxford?"],
        zh="牛津（Oxford）实验室测的样本平均c14_bp是多少？")

    # im14 trenches in unprotected sites
    unp = S[S.protected == "no"].site_id
    n = int(T.site_id.isin(unp).sum())
    add("implied", t_num(n, [("protected", (~T.site_id.isin(unp)).sum()), ("sites", len(unp) + 1)]),
        [TRE, SIT], {"layers": [TRE, SIT], "fields": ["protected"], "values": ["no"]},
        en=["How many trenches lie in sites that are not protected?"],
        de="Wie viele Schnitte liegen in nicht geschützten Fundstellen?",
        zh="有多少个探方位于未受保护的遗址中？")

    # im15 highest point of Fontana Vecchia
    s7 = S[S.site_id == 7].geometry.iloc[0]
    mask = ~geometry_mask([s7], DEMV.shape, DT)
    mx = float(np.nanmax(DEMV[mask]))
    add("implied", t_num(mx, [("whole DEM", np.nanmax(DEMV)), ("mean", np.nanmean(DEMV[mask]))], abs_=1.5),
        [SIT, DEMF], {"layers": [SIT, DEMF], "values": ["Fontana Vecchia"]},
        en=["What is the highest elevation within the site Fontana Vecchia?"],
        de="Wie hoch liegt der höchste Punkt der Fundstelle Fontana Vecchia?",
        zh="Fontana Vecchia遗址范围内最高点的高程是多少？")

    # im16 deepest trench
    k, v, k2, v2 = top_gap(T.set_index("trench_id").depth_m, 0.04)
    add("implied", t_name(k, [("shallowest", T.sort_values("depth_m").trench_id.iloc[0], None),
                              ("runner-up", k2, None)]),
        [TRE], {"fields": ["depth_m"]},
        en=["Which is the deepest trench?"],
        zh="哪个探方挖得最深？")

    # im17 surface finds count
    n = int((F.context == "surface").sum())
    add("implied", t_num(n, [("trench", (F.context == "trench").sum()), ("all", len(F))]),
        [FND], {"fields": ["context"], "values": ["surface"]},
        en=["how many surface finds do we have"],
        de=["Wie viele Oberflächenfunde gibt es?", 'Anzahl Lesefunde (context surface)?'],
        zh="地表采集的遗物一共几件？")

    # im18 median weight of bone finds
    b = F[F.material == "bone"].weight_g
    assert abs(b.median() - b.mean()) > 1
    add("implied", t_num(b.median(), [("mean", b.mean()), ("all finds", F.weight_g.median())], rel=0.002),
        [FND], {"fields": ["material", "weight_g"], "values": ["bone"]},
        en=["What is the median weight of the bone finds?"],
        de="Median des Gewichts der Knochenfunde?",
        zh="骨器类遗物重量的中位数是多少？")

    # im19 total transect length in km
    tot = R.len_m.sum()
    add("implied", t_num(tot / 1000, [("metres", tot), ("mean", R.len_m.mean() / 1000)], rel=0.015),
        [TRA], {"numbers": ["km"]},
        en=["How many km of transects were walked in total?"],
        de="Wie viele Kilometer Transekte wurden insgesamt begangen?",
        zh="样线总共有多少公里？")

    # im20 heaviest material on average
    mw = F.groupby("material").weight_g.mean()
    k, v, k2, v2 = top_gap(mw, 5)
    add("implied", t_name(k, [("most total weight", F.groupby("material").weight_g.sum().idxmax(), None)]),
        [FND], {"fields": ["material", "weight_g"]},
        en=["Which material has the highest average find weight?"],
        de="Welches Material hat im Mittel die schwersten Funde?",
        zh="哪种材质的遗物平均重量最大？")

    # im21 finds per site (count in each site)
    m = nz(counts_in(S, F, "name"))
    add("implied", t_pairs(m, [("trenches per site", nz(counts_in(S, T.assign(geometry=T.centroid), "name")))],
                           key="name", val="n"),
        [FND, SIT], {"layers": [FND, SIT]},
        en=["how many finds does each site have?"],
        de=["Wie viele Funde hat jede Fundstelle?", 'Fundanzahl pro Fundstelle bitte'],
        zh=["每个遗址各有多少件遗物？", '各遗址分别出了多少件遗物'])

    # im22 trenches per supervisor
    m = T.supervisor.value_counts().to_dict()
    add("implied", t_pairs(m, [("finds per supervisor", {k: v * 3 for k, v in m.items()}),
                               ("open only", T[T.status == "open"].supervisor.value_counts().to_dict())], n=len(m),
                           key="supervisor", val="n"),
        [TRE], {"fields": ["supervisor"]},
        en=["how many trenches does each supervisor have"],
        zh="每位负责人各负责几个探方？")

    # im23 earliest discovered site
    k = S.sort_values("discovered").name.iloc[0]
    add("implied", t_name(k, [("latest", S.sort_values("discovered").name.iloc[-1], None),
                              ("second", S.sort_values("discovered").name.iloc[1], None)]),
        [SIT], {"fields": ["discovered"]},
        en=["Which site was discovered first?"],
        de="Welche Fundstelle wurde als erste entdeckt?",
        zh="最早被发现的是哪个遗址？")

    # im24 Greek pottery count
    n = int(((F.period == "Greek") & (F.material == "pottery")).sum())
    add("implied", t_num(n, [("all Greek", (F.period == "Greek").sum()), ("all pottery", (F.material == "pottery").sum())]),
        [FND], {"fields": ["period", "material"], "values": ["Greek", "pottery"]},
        en=["How many Greek pottery finds are there?"],
        de="Wie viele griechische Keramikfunde gibt es?",
        zh="希腊时期的陶器有多少件？")

    # im25 trench with the most finds
    cnt = pd.Series(counts_in(T, F, "trench_id"))
    k, v, k2, v2 = top_gap(cnt, 1)
    add("implied", t_name(k, [("runner-up", k2, None), ("largest trench", T.sort_values("area").trench_id.iloc[-1], None)]),
        [TRE, FND], {"layers": [TRE, FND]},
        en=["Which trench produced the most finds?"],
        de=["In welchem Schnitt wurden die meisten Funde gemacht?", 'Welcher Schnitt war am fundreichsten?'],
        zh=["哪个探方出土的遗物最多？", '出东西最多的是哪个探方？'])

    # im26 share of finds that are pottery (%)
    sh = 100 * (F.material == "pottery").mean()
    add("implied", t_num(sh, [("count not share", (F.material == "pottery").sum()),
                              ("bone share", 100 * (F.material == "bone").mean())], rel=0.01),
        [FND], {"fields": ["material"], "values": ["pottery"]},
        en=["What share of all finds is pottery, in percent?"],
        zh="陶器占全部遗物的百分之几？")

    # im27 total excavated area in m2
    a = T.area.sum()
    add("implied", t_num(a, [("ha", a / 1e4), ("site area", S.area.sum())], rel=0.005),
        [TRE], {"numbers": ["m²"]},
        en=["How many square metres have been excavated in total?"],
        de="Wie viele Quadratmeter wurden insgesamt ausgegraben?",
        zh="一共发掘了多少平方米？")

    # im28 trenches without a lab date
    n = int((~T.trench_id.isin(LAB.trench_code)).sum())
    add("implied", t_num(n, [("with date", T.trench_id.isin(LAB.trench_code).sum()), ("lab rows", len(LAB))]),
        [TRE, LABF], {"layers": [TRE, LABF], "fields": ["trench_id", "trench_code"]},
        en=["How many trenches have no radiocarbon date in lab_dates?"],
        de="Für wie viele Schnitte gibt es noch kein C14-Datum in lab_dates?")

    # im29 mean sherds per transect of team Alpha
    a = R[R.team == "Alpha"].sherds.mean()
    add("implied", t_num(a, [("all teams", R.sherds.mean()), ("sum", R[R.team == "Alpha"].sherds.sum())], rel=0.005),
        [TRA], {"fields": ["team", "sherds"], "values": ["Alpha"]},
        en=["On average, how many sherds did team Alpha count per transect?"],
        zh="Alpha小组每条样线平均记录了多少陶片（sherds）？")

    # im30 sites without any trench (layer)
    nt = S[~S.site_id.isin(T.site_id)]
    add("implied", t_ids("site_id", nt, [("with trenches", S[S.site_id.isin(T.site_id)]), ("all", S)]),
        [SIT, TRE], {"layers": [SIT, TRE]},
        en=["Which sites have not been excavated (no trench inside)? Show them."],
        de="Welche Fundstellen enthalten keinen einzigen Schnitt?",
        zh=["哪些遗址里还没有任何探方？", '还没开过探方的遗址给我显示出来'])

    # im31 number of finds per year (show count for 2015) -> count per year table
    m = F.year.value_counts().to_dict()
    add("implied", t_pairs(m, [("per material", {k: v + 1 for k, v in m.items()})], n=len(m), key="year",
                           val="n"),
        [FND], {"fields": ["found_on"]},
        en=["how many finds were made each year?"],
        zh="每年各出土了多少件遗物？")

    # im32 the lightest metal find (its id)
    met = F[F.material == "metal"].sort_values("weight_g")
    assert met.weight_g.iloc[1] - met.weight_g.iloc[0] > 0.2
    add("implied", t_num(met.find_id.iloc[0], [("heaviest", met.find_id.iloc[-1]),
                                               ("lightest of all", F.sort_values("weight_g").find_id.iloc[0])]),
        [FND], {"fields": ["material", "weight_g", "find_id"], "values": ["metal"]},
        en=["What is the find_id of the lightest metal find?"],
        de="Welche find_id hat der leichteste Metallfund?")
