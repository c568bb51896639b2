"""The option table and recipes from Python: the golden recipes bit for bit, round trips,
keywords generated from the table, and the same refusals and warnings as the CLI."""
import pickle
import struct
import subprocess
import warnings

import numpy as np
import pytest

import perlin


def golden(test_data):
    for line in (test_data / "recipes.txt").read_text().splitlines():
        if line.startswith("#"):
            continue
        recipe, point, value, _ = line.split("\t")
        yield recipe, [float(x) for x in point.split()], float(value)


def bits(v):
    return struct.pack("<d", v)


def test_golden_recipes_give_their_bits_and_round_trip(test_data):
    n = 0
    for recipe, point, value in golden(test_data):
        f = perlin.Field.from_recipe(recipe)
        assert bits(f(*point)) == bits(value), recipe
        assert f.recipe == recipe
        # The keywords of repr build the same field; pickling keeps it.
        assert perlin.Field(**f._kwargs).recipe == recipe
        assert pickle.loads(pickle.dumps(f)).recipe == recipe
        n += 1
    assert n >= 120


@pytest.mark.filterwarnings("ignore:.*has no effect")
def test_every_option_is_a_keyword_with_the_tables_default():
    table = perlin.options()
    names = [o["name"] for o in table]
    assert "ridged-offset" in names and "ridged-gain" in names
    for o in table:
        kw = o["name"].replace("-", "_")
        if o["default"] is None:
            assert perlin.Field(**{kw: None}).recipe == "perlin=1"
        else:
            assert perlin.Field(**{kw: o["default"]}).recipe == "perlin=1", o
    assert table[0].keys() >= {"name", "type", "default", "help"}


def test_unknown_keywords_name_the_closest_option():
    with pytest.raises(TypeError, match=r"^unknown option 'octave' \(did you mean 'octaves'\?\)$"):
        perlin.Field(octave=3)
    with pytest.raises(TypeError, match=r"did you mean 'step'"):
        perlin.render(stpe=0.1)
    with pytest.raises(ValueError, match="did you mean 'octaves'"):
        perlin.Field.from_recipe("perlin=1&octave=3")


def test_the_same_text_gets_the_same_answer_everywhere(perlin_exe):
    # A value the CLI refuses, Python refuses with the same message.
    for args, kwargs in [(["--octaves", "40"], dict(fractal="fbm", octaves=40)),
                         (["--frequency", "inf"], dict(frequency=float("inf"))),
                         (["--ridged-gain", "17"], dict(fractal="ridged", ridged_gain=17))]:
        r = subprocess.run([perlin_exe, "eval", *args], input="1\n", capture_output=True, text=True)
        assert r.returncode == 2
        message = r.stderr.split("perlin: error: ")[1].strip()
        with pytest.raises(ValueError) as e:
            perlin.Field(**kwargs)
        assert str(e.value) == message


def test_unused_options_warn_as_the_cli_does():
    with pytest.warns(UserWarning, match="octaves has no effect without --fractal"):
        perlin.Field(octaves=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        perlin.Field(fractal="fbm", octaves=3)


def test_ridged_offset_and_gain_change_the_field_as_documented():
    base = perlin.Field(fractal="ridged", octaves=3)
    tuned = perlin.Field(fractal="ridged", octaves=3, ridged_offset=0.9, ridged_gain=3)
    assert tuned.recipe == "perlin=1&fractal=ridged&octaves=3&ridged-offset=0.9&ridged-gain=3"
    x = np.linspace(-3, 3, 50)
    assert not np.array_equal(base(x, 0.5), tuned(x, 0.5))
    assert np.array_equal(perlin.Field(fractal="ridged", octaves=3, ridged_offset=1.0, ridged_gain=2.0)(x, 0.5),
                          base(x, 0.5))


def test_render_takes_a_recipe_with_render_settings():
    # A recipe names the whole field: the preset gives the colormap, not the fractal.
    a = perlin.render(recipe="perlin=1&seed=3&fractal=fbm&octaves=6&normalize=true&decorrelate=true"
                             "&preset=clouds&size=40x24&step=0.05")
    b = perlin.render("clouds", seed=3, size=(40, 24), step=0.05)
    assert a.shape == (24, 40, 3) and np.array_equal(a, b)


def test_overflowing_coordinates_are_refused_as_the_cli_refuses_them():
    with pytest.raises(ValueError, match="frequency: octave 0 would sample"):
        perlin.Field(frequency=1e308)
    with pytest.raises(ValueError, match="beyond 2\\^52"):
        perlin.render(step=1e308, size=(4, 4))
    with pytest.raises(ValueError, match="warp-amplitude"):
        perlin.render(warp="progressive", warp_amplitude=1e300, warp_octaves=32, size=(4, 4))


def test_grid_shapes_and_steps_are_checked_as_every_front_checks_them():
    f = perlin.Field()
    with pytest.raises(TypeError, match="shape: must be integers"):
        f.grid((10.5, 5))
    with pytest.raises(TypeError, match="shape: must be integers"):
        f.grid((True, 5))
    with pytest.raises(ValueError, match="step: must not be 0"):
        f.grid((10, 5), step=0)
    with pytest.raises(ValueError, match="beyond 2\\^52"):
        f.grid((10, 5), origin=(1e300, 0))


def test_half_made_fields_and_bad_thread_counts_fail_cleanly():
    f = perlin.Field.__new__(perlin.Field)
    for use in (repr, lambda g: g(0.5), pickle.dumps, lambda g: g.recipe):
        with pytest.raises(TypeError, match="was not initialised"):
            use(f)
    for t in (-1, 2**32, -2**40, True):
        with pytest.raises(ValueError, match="threads: must be 0"):
            perlin.Field().grid((4, 4), threads=t)
    with pytest.raises(ValueError, match="threads: must be 0"):
        perlin.render(threads=-1, size=(4, 4))


def test_dask_shapes_and_chunks_are_checked_when_the_graph_is_built():
    pd = pytest.importorskip("perlin.dask")
    f = perlin.Field()
    with pytest.raises(ValueError, match="chunks: every chunk needs at least 1 sample"):
        pd.grid(f, (10, 5), chunks=((5, 0, 5), (5,)))
    with pytest.raises(ValueError, match="shape: must be 1 to 4 integers >= 1"):
        pd.grid(f, (0, 5))
    with pytest.raises(ValueError, match="beyond 2\\^52"):
        pd.grid(f, (10, 10), origin=(1e300, 0))
    with pytest.raises(TypeError, match="was not initialised"):
        pd.grid(perlin.Field.__new__(perlin.Field), (4, 4))


def test_recipes_that_are_not_text_name_the_argument():
    # A lone surrogate cannot be UTF-8: a ValueError naming the argument and the position, not
    # pybind11's RuntimeError "Unable to cast".
    with pytest.raises(ValueError, match=r"recipe: .*lone surrogate .*U\+D800.* at position 16"):
        perlin.Field.from_recipe("perlin=1&seed=3&\ud800")
    with pytest.raises(ValueError, match=r"recipe: .*lone surrogate"):
        perlin.Field(_recipe="perlin=1&fractal=fbm\udfff")
    with pytest.raises(ValueError, match=r"fractal: .*lone surrogate"):
        perlin.Field(fractal="fbm\ud800")
    with pytest.raises(ValueError, match=r"recipe: .*lone surrogate"):
        perlin.render(recipe="perlin=1\ud800", size=(4, 4))
    for bad in (5, b"perlin=1", None):
        with pytest.raises(TypeError, match="recipe: must be a string"):
            perlin.Field(_recipe=bad)


def test_a_pages_recipe_gives_its_field_and_warns_of_the_settings_left_out():
    field = "perlin=1&seed=42&fractal=fbm&octaves=5&frequency=0.5"
    page = field + "&preset=clouds&size=64x48&step=0.015625&colormap=heat"
    with pytest.warns(UserWarning, match=r"^recipe: preset, size, step, colormap are render "
                                         r"settings, not part of the field"):
        f = perlin.Field.from_recipe(page)
    g = perlin.Field.from_recipe(field)
    for p in [(0.3, 0.7), (1.25, -2.5, 3.0)]:
        assert bits(f(*p)) == bits(g(*p))
    assert f.recipe == field
    with pytest.raises(ValueError, match=r"unknown option 'stpe' \(did you mean 'step'\?\)"):
        perlin.Field.from_recipe(field + "&stpe=0.5")


def test_a_nul_in_a_recipe_is_refused_at_its_position_as_in_every_front():
    # The library's message, the same in C, C#, Lua, LuaJIT and JavaScript (their tests).
    for text, at in (("perlin=1\0&seed=3", 8), ("perlin=1&seed=3&octaves=2\0", 25)):
        with pytest.raises(ValueError, match=f"^recipe: a NUL byte at position {at} "):
            perlin.Field.from_recipe(text)
    with pytest.raises(ValueError, match="^recipe: a NUL byte at position 8 "):
        perlin.render(recipe="perlin=1\0&seed=3", size=(4, 4))
