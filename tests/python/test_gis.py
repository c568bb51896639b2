"""GeoTIFFs and maps written band by band, read back by GDAL (python3-gdal).

`perlin render` writes .tif, .npy and RAW files as it computes them (docs/render.md): the values
GDAL reads are the .npy's bit for bit, windows equal --offset renders, the GeoTIFF tags are the
CRS and geotransform asked for, and the memory does not grow with the map.
"""

import json
import shutil
import subprocess

import numpy as np
import pytest

gdal = pytest.importorskip("osgeo.gdal")
osr = pytest.importorskip("osgeo.osr")


def render(perlin_exe, *args):
    return subprocess.run([perlin_exe, "render", "-q", *args], capture_output=True, text=True)


def test_a_geotiff_has_the_crs_the_geotransform_and_the_values(perlin_exe, tmp_path):
    tif, npy = tmp_path / "map.tif", tmp_path / "map.npy"
    common = ["--preset", "terrain", "--size", "300x200", "--offset", "7,5"]
    r = render(perlin_exe, *common, "-o", str(tif), "--crs", "EPSG:32633", "--geo-origin",
               "500000,4600000", "--geo-pixel-size", "30,20", "--tiff-tiles", "64",
               "--compression", "6")
    assert r.returncode == 0, r.stderr
    assert render(perlin_exe, *common, "-o", str(npy)).returncode == 0
    d = gdal.Open(str(tif))
    assert (d.RasterXSize, d.RasterYSize) == (300, 200)
    # Pixel (0, 0) of this crop is pixel (7, 5) of the whole map, whose corner is the origin.
    assert d.GetGeoTransform() == (500000 + 7 * 30, 30, 0, 4600000 - 5 * 20, 0, -20)
    srs = osr.SpatialReference(wkt=d.GetProjection())
    assert srs.IsProjected() and srs.GetAuthorityCode(None) == "32633"
    band = d.GetRasterBand(1)
    assert band.GetBlockSize() == [64, 64]
    assert d.GetMetadata("IMAGE_STRUCTURE")["COMPRESSION"] == "DEFLATE"
    values = band.ReadAsArray()
    assert values.dtype == np.float32
    assert np.array_equal(values, np.load(npy))
    # What a GIS user sees: gdalinfo (gdal-bin) names the CRS and shows the geotransform.
    if shutil.which("gdalinfo"):
        info = json.loads(subprocess.run(["gdalinfo", "-json", str(tif)], capture_output=True,
                                         text=True, check=True).stdout)
        assert "WGS 84 / UTM zone 33N" in info["coordinateSystem"]["wkt"]
        assert info["geoTransform"] == [500210.0, 30.0, 0.0, 4599900.0, 0.0, -20.0]


def test_windows_of_a_big_tiff_are_offset_renders(perlin_exe, tmp_path):
    tif = tmp_path / "big.tif"
    assert render(perlin_exe, "--size", "1500x1100", "-o", str(tif)).returncode == 0
    d = gdal.Open(str(tif))
    for x, y, w, h in [(0, 0, 40, 30), (1460, 1070, 40, 30), (700, 333, 129, 257)]:
        part = tmp_path / f"part_{x}_{y}.npy"
        r = render(perlin_exe, "--size", f"{w}x{h}", "--offset", f"{x},{y}", "-o", str(part))
        assert r.returncode == 0, r.stderr
        assert np.array_equal(d.ReadAsArray(x, y, w, h), np.load(part)), (x, y)


def test_geographic_crs_and_16_bit_heightmaps(perlin_exe, tmp_path):
    tif, png = tmp_path / "h.tif", tmp_path / "h.png"
    r = render(perlin_exe, "--bits", "16", "--size", "96x64", "-o", str(tif), "--crs",
               "epsg:4326", "--geo-origin", "-10,60", "--geo-pixel-size", "0.25,0.125")
    assert r.returncode == 0, r.stderr
    assert render(perlin_exe, "--bits", "16", "--size", "96x64", "-o", str(png)).returncode == 0
    d = gdal.Open(str(tif))
    srs = osr.SpatialReference(wkt=d.GetProjection())
    assert srs.IsGeographic() and srs.GetAuthorityCode(None) == "4326"
    assert d.GetGeoTransform() == (-10, 0.25, 0, 60, 0, -0.125)
    samples = d.ReadAsArray()
    assert samples.dtype == np.uint16
    from PIL import Image

    assert np.array_equal(samples, np.asarray(Image.open(png)).astype(np.uint16))


def test_engine_tiles_are_georeferenced_where_they_lie(perlin_exe, tmp_path):
    out = str(tmp_path / "t_{x}_{y}.tif")
    r = render(perlin_exe, "--tiles", "2x2", "--size", "33x17", "-o", out, "--crs", "EPSG:3857",
               "--geo-origin", "100,900", "--geo-pixel-size", "10,5")
    assert r.returncode == 0, r.stderr
    for i in range(2):
        for j in range(2):
            d = gdal.Open(str(tmp_path / f"t_{i}_{j}.tif"))
            assert d.GetGeoTransform() == (100 + i * 32 * 10, 10, 0, 900 - j * 16 * 5, 0, -5)


def peak_kb(perlin_exe, *args):
    """The peak resident memory of one render, in KB (ru_maxrss of a child run alone)."""
    code = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], check=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    import sys

    r = subprocess.run([sys.executable, "-c", code, perlin_exe, "render", "-q", *args],
                       capture_output=True, text=True, check=True)
    return int(r.stdout.strip())


def test_streamed_files_hold_one_band_whatever_the_size(perlin_exe, tmp_path):
    # 16 times the samples (a 64 MB float map against 4 MB): the peak grows by far less than
    # one copy of the bigger map (a whole-frame render holds its values and its file: 128 MB).
    for ext in ["tif", "npy", "r16"]:
        small = peak_kb(perlin_exe, "--size", "1024x1024", "-o", str(tmp_path / f"s.{ext}"))
        big = peak_kb(perlin_exe, "--size", "4096x4096", "-o", str(tmp_path / f"b.{ext}"))
        assert big - small < 16 * 1024, (ext, small, big)
    assert (tmp_path / "b.tif").stat().st_size > 64 * 1024 * 1024


@pytest.mark.parametrize(
    "args, message",
    [
        (["--crs", "WGS84"], "is not EPSG:N"),
        (["--crs", "EPSG:3"], "not a coordinate reference system in PROJ's EPSG database"),
        (["--crs", "EPSG:4979"], "neither a geographic 2-D nor a projected system"),
        (["--crs", "EPSG:4326", "--geo-pixel-size", "1,-1"], "both > 0"),
        (["--geo-origin", "1,2"], "need --crs"),
        (["--tiff-tiles", "100"], "multiple of 16"),
    ],
)
def test_bad_georeferencing_is_refused_and_nothing_is_written(perlin_exe, tmp_path, args,
                                                               message):
    r = render(perlin_exe, "--size", "32x32", "-o", str(tmp_path / "x.tif"), *args)
    assert r.returncode == 2
    assert message in r.stderr
    assert list(tmp_path.iterdir()) == []
    png = render(perlin_exe, "-o", str(tmp_path / "x.png"), "--crs", "EPSG:4326")
    assert png.returncode == 2 and "write a .tif" in png.stderr
