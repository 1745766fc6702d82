"""Layer (a) of the sandbox on its own: the ast check accepts ordinary GIS scripts and names what it refuses."""

from __future__ import annotations

import pytest
from geoclerk.codegen.static_check import check_code, describe

GOOD_SCRIPT = """
import geopandas as gpd
import pandas as pd
import numpy as np
import matplotlib.pyplot as plt
from sklearn.cluster import KMeans
from shapely.geometry import Point
from pathlib import Path
import json, math, re
from collections import Counter
from scipy import signal
import scipy as sp
import glob

g = gpd.read_file('schools.gpkg').to_crs(32633)
g['area_m2'] = g.geometry.area
labels = KMeans(n_clusters=3, n_init=10).fit_predict(np.c_[g.geometry.x, g.geometry.y])
g.assign(cluster=labels).to_file('clusters.gpkg')
pd.DataFrame({'n': [len(g)]}).to_csv('summary.csv', index=False)
fig, ax = plt.subplots()
g.plot(ax=ax)
fig.savefig('map.png')
with open('notes.txt', 'w') as f:
    f.write(json.dumps({'count': len(g)}))
Path('out').mkdir(exist_ok=True)
print(getattr(g, 'crs'), math.pi, Counter(labels).most_common(1), __name__)
print(signal.find_peaks([0, 1, 0]), sp.signal.detrend([1, 2]), glob.glob('*.gpkg'))
"""


def test_an_ordinary_gis_script_passes(tmp_path):
    assert check_code(GOOD_SCRIPT, tmp_path) == []


REFUSED = [
    ("import sys", "import of 'sys' is not allowed"),
    ("from sys import modules", "import of 'sys' is not allowed"),
    ("import numpy.ctypeslib as c\nimport tensorflow", "import of 'tensorflow' is not allowed"),
    ("from . import secrets", "relative imports are not allowed"),
    ("from pathlib import sys", "importing 'sys' from 'pathlib' is not allowed"),
    ("x = compile('1', 'f', 'eval')", "'compile' is not allowed"),
    ("globals()['x'] = 1", "'globals' is not allowed"),
    ("df = None\ndf._data", "private attribute '._data'"),
    ("x = {}.__class__", "private attribute '.__class__'"),
    ("print(vars()['__builtins__'])", "the key '__builtins__' is not allowed"),
    ("getattr(object, name)", "getattr() is only allowed with a constant"),
    ("setattr(object, 'x', 1)", "'setattr' is not allowed"),
    ("import numpy as np\nnp.sys", "reaching the module 'sys'"),
    ("import matplotlib\nmatplotlib.signal", "reaching the module 'signal'"),
    ("from numpy import signal", "importing 'signal' from 'numpy'"),
    ("import glob\nglob.glob('/home/*')", "outside the work dir"),
    ("def f():\n    yield\nf().gi_frame", "attribute '.gi_frame'"),
    ("open('../escape.txt', 'w')", "outside the work dir"),
    ("open('/etc/passwd')", "outside the work dir"),
    ("from pathlib import Path\nPath('~/.ssh/id_rsa').read_text()", "outside the work dir"),
    ("import geopandas as gpd\ngpd.read_file('/vsicurl/http://x/y.gpkg')", "url or virtual path"),
    ("import pandas as pd\npd.read_csv('https://example.com/a.csv')", "url or virtual path"),
    ("g = None\ng.to_file('/tmp/out.gpkg')", "to_file() of '/tmp/out.gpkg' is outside the work dir"),
    ("print('unclosed'", "SyntaxError"),
    ("import os as o\no.system('id')", "os.system is not allowed"),
    ("import os.path as p\np.os.fork()", "os.fork is not allowed"),
    ("from os import setuid", "os.setuid is not allowed"),
    ("import os\nos.environ['CPL_VSIL_CURL_ALLOWED_EXTENSIONS'] = '.tif'", "environment variable"),
    ("import os\nos.makedirs('/tmp/elsewhere')", "makedirs() of '/tmp/elsewhere' is outside the work dir"),
    ("import shutil\nshutil.rmtree('/home')", "rmtree() of '/home' is outside the work dir"),
    ("import numpy._core as c", "private module"),
    ("from osgeo import gdal", "import of 'osgeo' is not allowed"),
]


@pytest.mark.parametrize(("code", "expected"), REFUSED, ids=[r[1][:30] for r in REFUSED])
def test_refusals_name_the_problem(tmp_path, code, expected):
    findings = check_code(code, tmp_path)
    assert findings, "the check let this through"
    assert any(expected.lower() in str(f).lower() for f in findings), [str(f) for f in findings]
    assert describe(findings).startswith("The sandbox refused the code before running it: line ")


def test_findings_carry_line_numbers(tmp_path):
    findings = check_code("x = 1\ny = 2\nimport socket\n", tmp_path)
    assert [f.line for f in findings] == [3]


def test_os_shutil_and_rasterio_for_files_in_the_work_dir_pass(tmp_path):
    code = (
        "import os\nimport shutil\nimport rasterio\nfrom os.path import join\n"
        "os.makedirs(join('out', 'a'), exist_ok=True)\nprint(os.listdir('.'), os.getcwd(), os.path.exists('x.tif'))\n"
        "shutil.copy('x.tif', 'out/y.tif')\nos.remove('out/y.tif')\nos.environ['SHAPE_RESTORE_SHX'] = 'YES'\n"
        "src = rasterio.open('x.tif')\n"
    )
    assert check_code(code, tmp_path) == []


def test_paths_inside_the_work_dir_are_fine(tmp_path):
    code = f"open({str(tmp_path / 'a.txt')!r}, 'w')\nopen('sub/b.txt', 'w')\nopen('./c.csv')"
    assert check_code(code, tmp_path) == []
