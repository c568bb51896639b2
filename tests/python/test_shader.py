"""Field.shader and perlin.split_for_shader: `perlin shader`'s text from Python (docs/gpu.md)."""
import subprocess

import pytest

import perlin


@pytest.mark.parametrize("options, recipe, args", [
    ({"seed": 42, "fractal": "fbm", "octaves": 5}, "perlin=1&seed=42&fractal=fbm&octaves=5",
     {"lang": "glsl", "precision": "double", "dims": 2}),
    ({"noise": "value", "interp": "cubic", "warp": "basic"}, None,
     {"lang": "wgsl", "dims": 3, "standalone": True}),
    ({"plane": "rotated", "fractal": "ridged", "octaves": 3}, None,
     {"lang": "glsl-es", "dims": 4, "standalone": True}),
    ({"period": 8}, None, {"lang": "hlsl", "dims": 1}),
])
def test_field_shader_is_the_cli_text(perlin_exe, options, recipe, args):
    field = perlin.Field(**options)
    if recipe is not None:
        assert field.recipe == recipe
    text = field.shader(**args)
    cli = [perlin_exe, "shader", "--recipe", field.recipe, "--lang", args["lang"],
           "--precision", args.get("precision", "float"), "--dims", str(args["dims"])]
    if args.get("standalone"):
        cli.append("--standalone")
    assert text == subprocess.run(cli, capture_output=True, text=True, check=True).stdout
    first = text.split("\n", 2)
    assert ("// recipe: " + field.recipe) in first[:2]
    assert "perlin_field" in text


def test_what_shaders_cannot_express_raises_value_error():
    with pytest.raises(ValueError, match=r"2\^31 - 1"):  # octave 30's period: 3 x 2^30
        perlin.Field(period=3, fractal="fbm", octaves=32).shader()
    with pytest.raises(ValueError, match="double"):
        perlin.Field().shader(lang="wgsl", precision="double")
    with pytest.raises(ValueError, match="precision"):
        perlin.Field().shader(precision="half")
    with pytest.raises(ValueError, match="lang"):
        perlin.Field().shader(lang="cuda")


def test_split_for_shader():
    assert perlin.split_for_shader(1e6 + 0.25) == (1000000, 0.25)
    assert perlin.split_for_shader(-2.5) == (-3, 0.5)
    cell, frac = perlin.split_for_shader(123456789.123456789)
    assert cell == 123456789 and abs(frac - 0.123456789) < 2 ** -25
    with pytest.raises(ValueError):
        perlin.split_for_shader(float("nan"))
    with pytest.raises(ValueError):
        perlin.split_for_shader(3e9)
