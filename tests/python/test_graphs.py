"""Graphs (version-2 recipes) through Field.from_recipe: every graph of tests/data/graphs.txt
gives its value and gradient bit for bit (from the file's hex bits), as a scalar call, an array
call and a gradient; a bad graph is refused with the library's message naming the node."""
import struct

import numpy as np
import pytest

import perlin


def from_hex(h):
    return struct.unpack(">d", bytes.fromhex(h))[0]


def graphs(test_data):
    """(recipe, point, value, gradient) of every row of graphs.txt, the numbers from their bits."""
    for line in (test_data / "graphs.txt").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        recipe, point, _value, _gradient, hexbits = line.split("\t")
        dims = len(point.split())
        bits = [from_hex(h) for h in hexbits.split()]
        assert len(bits) == 2 * dims + 1, recipe
        yield recipe, bits[:dims], bits[dims], bits[dims + 1:]


def same(a, b):
    return struct.pack("<d", a) == struct.pack("<d", b)


def test_every_graph_gives_its_value_and_gradient_bit_for_bit(test_data):
    n = 0
    for recipe, point, value, gradient in graphs(test_data):
        f = perlin.Field.from_recipe(recipe)
        got = f(*point)
        assert same(got, value), (recipe, got, value)
        arr = f(*[np.array([c]) for c in point])
        assert same(float(arr[0]), value), recipe
        v, g = f.gradient(*point)
        assert same(v, value), recipe
        assert len(g) == len(gradient)
        for a, b in zip(g, gradient):
            assert same(float(a), b), (recipe, list(g), gradient)
        # Written back: the graph's own text, or for a one-field graph that field's version-1
        # recipe (the same bits).
        back = f.recipe
        if back != recipe:
            assert back.startswith("perlin=1&"), (recipe, back)
            assert same(perlin.Field.from_recipe(back)(*point), value)
        n += 1
    assert n >= 30


def test_a_cycle_is_refused_naming_the_node():
    with pytest.raises(ValueError, match=r"^b\.in: a cycle: a -> b -> a$"):
        perlin.Field.from_recipe("perlin=2&out=a&a=add&a.in=b,b&b=abs&b.in=a")


def test_bad_graphs_are_refused_with_the_librarys_message(test_data):
    n = 0
    for line in (test_data / "bad_graphs.txt").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        recipe, message = line.split("\t")
        with pytest.raises(ValueError) as e:
            perlin.Field.from_recipe(recipe)
        assert message in str(e.value), (recipe, str(e.value))
        n += 1
    assert n >= 15


# Composition: the operators assemble graphs whose values are those of the same graph written by
# hand as a recipe (the library's graph::eval), bit for bit, gradients included.
POINTS = [(0.3, 0.7), (-4.25, 11.5), (13.1, -2.6)]


def assert_same_field(got, want):
    assert got._core._is_graph
    for p in POINTS:
        assert same(got(*p), want(*p)), (got.recipe, p)
        gv, gg = got.gradient(*p)
        wv, wg = want.gradient(*p)
        assert same(gv, wv) and all(same(float(x), float(y)) for x, y in zip(gg, wg))


A = "a=field&a.seed=3&a.fractal=fbm&a.octaves=3"
B = "b=field&b.seed=5&b.fractal=ridged&b.octaves=2"
M = "m=field&m.seed=8&m.frequency=0.25"


def test_operators_are_the_graphs_nodes():
    a = perlin.Field(seed=3, fractal="fbm", octaves=3)
    b = perlin.Field(seed=5, fractal="ridged", octaves=2)
    g = perlin.Field.from_recipe
    assert_same_field(a + b, g(f"perlin=2&out=s&{A}&{B}&s=add&s.in=a,b"))
    assert_same_field(a * b, g(f"perlin=2&out=s&{A}&{B}&s=multiply&s.in=a,b"))
    assert_same_field(a - b, g(f"perlin=2&out=s&{A}&{B}&s=subtract&s.in=a,b"))
    assert_same_field(-a, g(f"perlin=2&out=s&{A}&s=invert&s.in=a"))
    assert_same_field(abs(a), g(f"perlin=2&out=s&{A}&s=abs&s.in=a"))
    assert_same_field(0.5 * a, g(f"perlin=2&out=s&{A}&c=constant&c.value=0.5&s=multiply&s.in=c,a"))
    assert_same_field(a + 1, g(f"perlin=2&out=s&{A}&c=constant&c.value=1&s=add&s.in=a,c"))
    assert_same_field(1 - a, g(f"perlin=2&out=s&{A}&c=constant&c.value=1&s=subtract&s.in=c,a"))
    # A field used twice is one node (evaluated once per point).
    assert_same_field(a * a, g(f"perlin=2&out=s&{A}&s=multiply&s.in=a,a"))
    assert (abs(a) + a * 2).recipe.count("=field") == 1
    # Nested: graphs compose with graphs.
    assert_same_field(abs(a + b) * 0.25,
                      g(f"perlin=2&out=s&{A}&{B}&t=add&t.in=a,b&u=abs&u.in=t"
                        "&c=constant&c.value=0.25&s=multiply&s.in=u,c"))


def test_select_curve_and_clamp_are_the_graphs_nodes():
    a = perlin.Field(seed=3, fractal="fbm", octaves=3)
    b = perlin.Field(seed=5, fractal="ridged", octaves=2)
    m = perlin.Field(seed=8, frequency=0.25)
    g = perlin.Field.from_recipe
    assert_same_field(perlin.select(m, a, b, lower=-0.2, upper=0.5, falloff=0.125),
                      g(f"perlin=2&out=s&{A}&{B}&{M}&s=select&s.in=a,b,m"
                        "&s.lower=-0.2&s.upper=0.5&s.falloff=0.125"))
    pts = [[-1, -1], [-0.25, 0.1], [0.4, 0.3], [1, 1]]
    assert_same_field(a.curve(pts),
                      g(f"perlin=2&out=s&{A}&s=curve&s.in=a&s.points=-1:-1,-0.25:0.1,0.4:0.3,1:1"))
    assert_same_field(a.curve(pts, mode="libnoise"),
                      g(f"perlin=2&out=s&{A}&s=curve&s.in=a"
                        "&s.points=-1:-1,-0.25:0.1,0.4:0.3,1:1&s.mode=libnoise"))
    assert_same_field(a.clamp(-0.3, 0.4), g(f"perlin=2&out=s&{A}&s=clamp&s.in=a&s.lower=-0.3&s.upper=0.4"))
    # The composed field is a graph like any other: its recipe reads back to the same graph.
    c = perlin.select(m, a, b).curve(pts)
    assert perlin.Field.from_recipe(c.recipe).recipe == c.recipe
    assert_same_field(perlin.Field.from_recipe(c.recipe), c)


def test_composition_refusals_are_the_librarys():
    a = perlin.Field(seed=3)
    with pytest.raises(TypeError):
        a + "x"
    with pytest.raises(ValueError, match=r"points"):
        a.curve([[0, 0], [0.5, 1], [1, 1]], mode="libnoise")
    with pytest.raises(TypeError):
        perlin.select(a, a, "b")
