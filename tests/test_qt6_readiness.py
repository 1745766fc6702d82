"""QGIS 4 (Qt6) readiness: the scan finds each blocker, passes what Qt5 and Qt6 both accept; the code is clean."""

from __future__ import annotations

import configparser

import pytest
from geoclerk.tests.qt6_scan import ROOT, scan_source, scan_tree

BLOCKERS = [
    ("from PyQt5.QtCore import Qt", "direct-qt"),
    ("import PyQt5.QtWidgets", "direct-qt"),
    ("from PyQt6.QtGui import QAction", "direct-qt"),
    ("import sip", "direct-qt"),
    ("from qgis.PyQt.QtCore import Qt\nx = Qt.AlignLeft", "unscoped-enum"),
    ("from qgis.PyQt.QtCore import Qt\nx = Qt.AlignLeft | Qt.AlignmentFlag.AlignTop", "unscoped-enum"),
    ("from qgis.PyQt import QtCore\nx = QtCore.Qt.Checked", "unscoped-enum"),
    ("from qgis.PyQt.QtWidgets import QDialog\nok = QDialog.Accepted", "unscoped-enum"),
    ("from qgis.PyQt.QtWidgets import QDialogButtonBox as B\nb = B.Ok", "unscoped-enum"),
    ("from qgis.PyQt.QtWidgets import QSizePolicy\np = QSizePolicy.Expanding", "unscoped-enum"),
    ("from qgis.PyQt.QtCore import QVariant\nt = QVariant.Int", "qvariant-type"),
    ("from qgis.PyQt.QtCore import QVariant\nt = QVariant.Type.Int", "qvariant-type"),
    ("dialog.exec_()", "exec_"),
    ("app.exec_", "exec_"),
    ("from qgis.PyQt.QtWidgets import QAction", "moved"),
    ("from qgis.PyQt.QtWidgets import QPushButton, QShortcut", "moved"),
    ("from qgis.PyQt import QtWidgets\na = QtWidgets.QAction()", "moved"),
    # a QtWidgets import is only a fallback when the QtGui import is tried first and ImportError is caught
    ("try:\n    from qgis.PyQt.QtGui import QAction\nexcept AttributeError:\n"
     "    from qgis.PyQt.QtWidgets import QAction", "moved"),
    ("try:\n    from qgis.PyQt.QtGui import QShortcut\nexcept ImportError:\n"
     "    from qgis.PyQt.QtWidgets import QAction", "moved"),
    ("from qgis.PyQt.QtCore import QRegExp", "removed"),
    ("from qgis.PyQt.QtWidgets import QDesktopWidget", "removed"),
    # QGIS's own enums: unscoped members, and the names QGIS 3.30+ moved to Qgis.* (QGIS 4 drops the old ones)
    ("from qgis.core import QgsTask\nf = QgsTask.CanCancel", "qgis-enum"),
    ("from qgis.core import Qgis\nlevel = Qgis.Success", "qgis-enum"),
    ("from qgis.core import QgsWkbTypes\nt = QgsWkbTypes.PointGeometry", "qgis-enum"),
    ("from qgis.core import QgsMapLayer as L\nt = L.VectorLayer", "qgis-enum"),
    ("from qgis.core import QgsProcessing\nt = QgsProcessing.TypeVector", "qgis-enum"),
    ("from qgis.core import QgsLegendStyle\ns = QgsLegendStyle.Title", "qgis-enum"),
    ("from qgis.core import QgsFeatureRequest\nf = QgsFeatureRequest.NoGeometry", "qgis-enum"),
]  # fmt: skip

CLEAN = [
    "from qgis.PyQt.QtCore import Qt\nx = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop",
    "from qgis.PyQt.QtWidgets import QDialog\nok = QDialog.DialogCode.Accepted\nd = QDialog()\nd.exec()",
    "from qgis.PyQt.QtWidgets import QSizePolicy\npolicy_type = QSizePolicy.Policy",
    "from qgis.PyQt.QtCore import QMetaType\nt = QMetaType.Type.Int",
    "from qgis.PyQt.QtCore import QCoreApplication\ns = QCoreApplication.translate('a', 'b')",
    "from qgis.PyQt import sip\nsip.isdeleted(None)",
    "try:\n    from qgis.PyQt.QtGui import QAction\nexcept ImportError:\n    from qgis.PyQt.QtWidgets import QAction",
    "from qgis.core import Qgis, QgsTask\nf = QgsTask.Flag.CanCancel\nlevel = Qgis.MessageLevel.Success",
    "from qgis.core import QgsWkbTypes as W, QgsVectorFileWriter as V\nm = W.isMultiType(1)\no = V.SaveVectorOptions",
    "from geoclerk.geoclerk_plugin.qgis_enums import GeometryType\nt = GeometryType.Point",
    "codes = ['PyQt5', 'import sip']  # strings are not imports",
]


@pytest.mark.parametrize(("source", "rule"), BLOCKERS)
def test_each_qt6_blocker_is_found(source, rule):
    assert rule in {finding.rule for finding in scan_source(source)}, source


@pytest.mark.parametrize("source", CLEAN)
def test_spellings_that_work_on_qt5_and_qt6_pass(source):
    assert scan_source(source) == []


def test_scoped_suggestion_names_the_enum():
    (finding,) = scan_source("from qgis.PyQt.QtCore import Qt\nflags = Qt.TextSelectableByMouse")
    assert finding.line == 2
    assert "Qt.TextInteractionFlag.TextSelectableByMouse" in finding.text


def test_a_moved_qgis_enum_is_named_by_its_qgis_4_name():
    from qgis.core import Qgis

    (finding,) = scan_source("from qgis.core import QgsWkbTypes\nt = QgsWkbTypes.PolygonGeometry")
    # QGIS 3.30+ has Qgis.GeometryType (the name QGIS 4 keeps); 3.22 only the scoped spelling of its own enum
    kept = "Qgis.GeometryType.Polygon" if hasattr(Qgis, "GeometryType") else "QgsWkbTypes.GeometryType.PolygonGeometry"
    assert finding.rule == "qgis-enum" and f"names it {kept} " in finding.text


def test_the_code_has_no_qt6_blockers():
    findings = scan_tree(ROOT)
    assert not findings, "\n".join(map(str, findings))


def test_supports_qt6_is_declared():
    """Declared only because the scan above is clean and the GUI tests pass on QGIS 3.44 (make test-qgis NEW=3.44)."""
    meta = configparser.ConfigParser(interpolation=None)
    meta.optionxform = str  # keys keep their case, as QGIS reads them
    meta.read(ROOT / "metadata.txt", encoding="utf-8")
    assert meta["general"]["supportsQt6"] == "True"
    assert float(meta["general"]["qgisMaximumVersion"]) >= 4
