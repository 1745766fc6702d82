"""blind13 declines: no correct no-model answer (layer not loaded, field missing, ambiguous, open-ended)."""
from cases_def import DEMF, FND, LABF, SIT, TRA, TRE, decline


def define_decline():
    # ---- not loaded
    decline("not_loaded", "no geophysics (magnetometry) layer is loaded", [SIT, TRE],
            en="Overlay the magnetometry anomalies with the trenches and count anomalies per trench",
            de="Wie viele Magnetik-Anomalien liegen in jedem Schnitt?")
    decline("not_loaded", "no roads layer is loaded", [SIT],
            en="Which sites are within 500 m of a modern road?",
            zh="距离现代道路500米以内的遗址有哪些？")
    decline("not_loaded", "no soil samples layer is loaded", [TRE, FND],
            en="Join the soil sample phosphate values to the trenches",
            de="Phosphatwerte der Bodenproben an die Schnitte anhängen")
    decline("not_loaded", "no rivers layer is loaded", [SIT, FND],
            en="How far is each site from the nearest river?",
            zh="每个遗址距最近河流有多远？")
    decline("not_loaded", "no cadastral parcels / land ownership layer", [SIT],
            en="List the landowners of the parcels covering Monte Grande")
    decline("not_loaded", "the DEM is not among the inputs of this request", [SIT, TRE],
            en="What is the mean elevation of each trench?",
            de="Mittlere Geländehöhe jedes Schnitts berechnen")
    decline("not_loaded", "no aerial photo / orthophoto is loaded", [SIT],
            zh="在航拍影像上识别作物痕迹并数字化为面")

    # ---- missing field
    decline("missing_field", "finds have no depth field (depth_m is on trenches, per trench not per find)", [FND],
            en="What is the average depth of the finds below surface?",
            zh="遗物的平均埋藏深度是多少？")
    decline("missing_field", "finds have no preservation/condition field", [FND],
            en="Select the finds in poor condition",
            de="Alle Funde mit schlechtem Erhaltungszustand auswählen")
    decline("missing_field", "sites have no owner field", [SIT],
            en="Count the sites per owner")
    decline("missing_field", "transects have no GPS accuracy field", [TRA],
            en="Show the transects whose GPS accuracy is worse than 5 m",
            zh="GPS精度差于5米的样线有哪些？")
    decline("missing_field", "trenches have no soil type field", [TRE],
            de="Schnitte nach Bodenart gruppieren und die Anzahl zählen")
    decline("missing_field", "lab_dates has no calibrated age (cal BC) field; calibration needs a curve", [LABF],
            en="Mean calibrated age (cal BC) per lab",
            zh="计算每个实验室的校正年代（cal BC）平均值")

    # ---- ambiguous
    decline("ambiguous", "finds (period) and sites (main_period) are both loaded: count finds per period or sites "
                         "per main_period?", [FND, SIT],
            en="count per period", de="Anzahl je Periode")
    decline("ambiguous", "two or more layers loaded and 'the layer' names none of them", [TRE, SIT, FND],
            en="buffer the layer by 100 m",
            zh="把这个图层缓冲100米")
    decline("ambiguous", "'the trench' - there are 36 trenches and none is named", [TRE, FND],
            en="How many finds are in the trench?",
            de="Wie viele Funde liegen im Schnitt?")
    decline("ambiguous", "'the date' — finds have found_on, transects walked_on, trenches opened; 'the latest' "
                         "of which layer?", [FND, TRA, TRE],
            en="What is the latest date?",
            zh="最新的日期是哪天？")
    decline("ambiguous", "distance without a unit on a layer in degrees", [FND],
            en="Buffer the finds by 0.5",
            de="Funde um 0,5 puffern")
    decline("ambiguous", "'large' has no threshold; which trenches count as large is a choice", [TRE],
            en="Show me the large trenches",
            zh="把大的探方挑出来")

    # ---- open-ended
    decline("open_ended", "planning judgement: where to dig next", [SIT, TRE, FND, DEMF],
            en="Where should we open the next trench?",
            de="Wo sollten wir nächste Saison am besten graben?",
            zh="下一季应该在哪里开新的探方？")
    decline("open_ended", "interpretation of chronology, not a GIS operation", [FND, LABF],
            en="Interpret the settlement history of the valley from the finds and the radiocarbon dates",
            zh="根据遗物和测年结果解释这个山谷的聚落变迁")
    decline("open_ended", "predictive model with design choices", [SIT, DEMF],
            en="Build a predictive model of where undiscovered sites are likely",
            de="Erstelle ein Vorhersagemodell für noch unentdeckte Fundstellen")
    decline("open_ended", "significance assessment is a judgement", [SIT, FND],
            en="Which site is the most important archaeologically?")

    # ---- more declines
    decline("not_loaded", "no geological map layer is loaded", [SIT, FND],
            en="On which geological unit does each site lie?",
            zh="每个遗址位于哪种地质单元上？")
    decline("not_loaded", "no layer of the 2019 survey is loaded (only the current finds)", [FND],
            de="Vergleiche die Funde mit denen der Begehung von 2019 und zeig mir die neuen")
    decline("missing_field", "finds have no stratigraphic unit / context number field (context is trench/surface)",
            [FND], de="Funde je stratigraphischer Einheit (SE-Nummer) zählen",
            en="count the finds per stratigraphic unit number")
    decline("missing_field", "finds have no restoration / conservation status field", [FND],
            zh="哪些遗物已经修复过了？")
    decline("ambiguous", "'Greek' is a value in both finds.period and sites.main_period", [FND, SIT],
            en="select the Greek ones",
            de="Nimm mal alle griechischen raus")
    decline("ambiguous", "nearest to what, and how many? no reference feature or number", [FND, TRE],
            zh="找出最近的遗物")
    decline("open_ended", "writing a season report is not a GIS operation", [SIT, TRE, FND],
            de="Schreib mir einen Grabungsbericht für die Saison 2024")
    decline("open_ended", "'why' asks for an interpretation; the clustering test alone is not the answer", [FND],
            zh="遗物分布是不是聚集的？为什么会这样？")
