// The C# binding against Ken Perlin's reference values (and his octave loop) bit for bit, a grid
// against single calls, and errors with the library's message. Usage: mono test.exe DATA_DIR
using System;
using System.Globalization;
using System.IO;
using PerlinNoise;

public static class PerlinTest
{
    static int failures = 0;

    static void Check(bool ok, string what)
    {
        if (!ok) { Console.Error.WriteLine("failed: " + what); ++failures; }
    }

    static double Num(string s) => double.Parse(s, NumberStyles.Float, CultureInfo.InvariantCulture);

    static void ExpectNull(Action call, string parameter)
    {
        try { call(); Check(false, "null " + parameter + " is refused"); }
        catch (ArgumentNullException e) { Check(e.ParamName == parameter, "ParamName " + e.ParamName + ", want " + parameter); }
        catch (Exception e) { Check(false, "null " + parameter + ": " + e.GetType().Name + ": " + e.Message); }
    }

    public static int Main(string[] args)
    {
        string data = args[0];
        using (var p = new Perlin())
        {
            Check(p.Noise(3.14, 42, 7) == 0.13691995878400012, "tutorial value");
            int rows = 0;
            foreach (var line in File.ReadAllLines(Path.Combine(data, "improved_noise_3d.txt")))
            {
                var f = line.Split(' ');
                double got = p.Noise(Num(f[0]), Num(f[1]), Num(f[2]));
                Check(got == Num(f[3]), "reference " + line + " -> " + got.ToString("R", CultureInfo.InvariantCulture));
                ++rows;
            }
            Check(rows == 1201, "1201 reference rows");
            int fbm = 0;
            foreach (var line in File.ReadAllLines(Path.Combine(data, "fbm_3d.txt")))
            {
                var f = line.Split(' ');
                double got = p.OctavePerlin(Num(f[0]), Num(f[1]), Num(f[2]), int.Parse(f[3]), Num(f[4]));
                Check(got == Num(f[5]), "fbm " + line);
                ++fbm;
            }
            Check(fbm == 300, "300 fbm rows");
            // OctavePerlin from 4 threads, each with its own settings, on one Perlin: every answer
            // is its settings' value (the cached octave field is shared, under a lock; without it
            // a thread's field was replaced and disposed under another's call).
            var want = new double[4, 200];
            for (int t = 0; t < 4; ++t)
                for (int i = 0; i < 200; ++i)
                    want[t, i] = p.OctavePerlin(i * 0.37, i * 0.11, t * 0.5, 2 + t, 0.5 + 0.1 * t);
            int wrong = 0, thrown = 0;
            var go = new System.Threading.ManualResetEvent(false);  // all four start together
            var threads = new System.Threading.Thread[4];
            for (int t = 0; t < 4; ++t)
            {
                int tt = t;
                threads[t] = new System.Threading.Thread(() =>
                {
                    go.WaitOne();
                    try
                    {
                        for (int round = 0; round < 100; ++round)
                            for (int i = 0; i < 200; ++i)
                                if (p.OctavePerlin(i * 0.37, i * 0.11, tt * 0.5, 2 + tt, 0.5 + 0.1 * tt) != want[tt, i])
                                    System.Threading.Interlocked.Increment(ref wrong);
                    }
                    catch (Exception)
                    {
                        System.Threading.Interlocked.Increment(ref thrown);
                    }
                });
                threads[t].Start();
            }
            go.Set();
            foreach (var th in threads) th.Join();
            Check(wrong == 0 && thrown == 0, "OctavePerlin from 4 threads: " + wrong + " wrong, " + thrown + " threw");
            Check(p.Noise(0.5, 0.25) == p.Noise(0.5, 0.25, 0.0), "2-D is the z = 0 slice");
        }
        using (var f = new Perlin(42).Set("fractal", "fbm").Set("octaves", "5").Set("normalize", "1"))
        {
            var grid = new float[64 * 32];
            var exact = new double[64 * 32];
            f.FillGrid(grid, 64, 32, -1.5, 2.25, 1.0 / 16);
            f.FillGrid(exact, 64, 32, -1.5, 2.25, 1.0 / 16, 1);
            for (int j = 0; j < 32; ++j)
                for (int i = 0; i < 64; ++i)
                {
                    double want = f.Eval(-1.5 + i * (1.0 / 16), 2.25 + j * (1.0 / 16));
                    Check(exact[j * 64 + i] == want, "double grid == Eval");
                    Check(Math.Abs(grid[j * 64 + i] - want) <= 2e-6, "float grid within tolerance");
                }
            var volume = new float[16 * 8 * 4];
            f.FillGrid(volume, 16, 8, 4, 0.5, -0.25, 3.0, 0.125);
            for (int k = 0; k < 4; ++k)
                for (int j = 0; j < 8; ++j)
                    for (int i = 0; i < 16; ++i)
                    {
                        double want = f.Eval(0.5 + i * 0.125, -0.25 + j * 0.125, 3.0 + k * 0.125);
                        Check(Math.Abs(volume[(k * 8 + j) * 16 + i] - want) <= 2e-6, "volume within tolerance");
                    }
            var values = new float[16 * 8];
            var slopes = new float[2 * 16 * 8];
            f.FillGridGradient(values, slopes, 16, 8, 0.5, -0.25, 0.125);
            for (int j = 0; j < 8; ++j)
                for (int i = 0; i < 16; ++i)
                {
                    var want = new double[2];
                    double wv = f.Gradient(new[] { 0.5 + i * 0.125, -0.25 + j * 0.125 }, want);
                    int n = j * 16 + i;
                    Check(Math.Abs(values[n] - wv) <= 2e-6, "gradient grid value");
                    Check(Math.Abs(slopes[n] - want[0]) <= 1e-3 && Math.Abs(slopes[128 + n] - want[1]) <= 1e-3,
                          "gradient grid slopes within tolerance");
                }
            try { f.FillGrid(volume, -16, 8, 4, 0, 0, 0, 0.1); Check(false, "negative size accepted"); }
            catch (PerlinException e) { Check(e.Code == -4, "negative size is PERLIN_E_SIZE"); }
            var g = new double[2];
            double v = f.Gradient(new[] { 0.3, 0.7 }, g);
            Check(v == f.Eval(0.3, 0.7) && !double.IsNaN(g[0]), "gradient");
        }
        using (var w = new Perlin().Set("warp", "independent").Set("warp-amplitude", "1.5"))
        using (var plain = new Perlin())
        {
            Check(w.Eval(0.3, 0.7) != plain.Eval(0.3, 0.7), "a warp moves the values");
        }
        try { new Perlin().Set("warp", "basic").Set("warp-amplitude", "-1"); Check(false, "negative warp accepted"); }
        catch (PerlinException e) { Check(e.Message == "warp-amplitude: must be >= 0, got -1", e.Message); }
        try { new Perlin().Set("octaves", "0"); Check(false, "octaves 0 accepted"); }
        catch (PerlinException e) { Check(e.Message == "octaves: must be 1 to 32, got 0", e.Message); Check(e.Code == -3, "code"); }
        try { new Perlin().Set("octavez", "3"); Check(false, "unknown option accepted"); }
        catch (PerlinException e) { Check(e.Message.Contains("octavez") && e.Code == -2, e.Message); }
        try { new Perlin().FillGrid(new float[10], 64, 32, 0, 0, 0.1); Check(false, "short buffer accepted"); }
        catch (PerlinException e) { Check(e.Message.StartsWith("out:"), e.Message); }
        // The version is the project's: the project() line of the top CMakeLists.txt.
        var project = System.Text.RegularExpressions.Regex.Match(
            File.ReadAllText(Path.Combine(data, "..", "..", "CMakeLists.txt")), @"project\(perlin VERSION ([0-9.]+)");
        Check(project.Success && Perlin.Version == project.Groups[1].Value,
              "version " + Perlin.Version + ", CMakeLists.txt says " + project.Groups[1].Value);
        // The seed check values of docs/seeding.md (seeds.txt), bit for bit (from the bits column:
        // Mono's double.Parse is not always correctly rounded).
        int seeds = 0;
        foreach (var line in File.ReadAllLines(Path.Combine(data, "seeds.txt")))
        {
            if (line.StartsWith("#")) continue;
            var parts = line.Split('\t');
            if (parts[1] == "permutation") continue;
            var point = Array.ConvertAll(parts[2].Split(' '), Num);
            long want = Convert.ToInt64(parts[4], 16);
            using (var sf = new Perlin(ulong.Parse(parts[0], CultureInfo.InvariantCulture)).Set("noise", parts[1]))
            {
                double got = sf.Eval(point);
                Check(BitConverter.DoubleToInt64Bits(got) == want,
                      "seed " + line + " -> " + got.ToString("R", CultureInfo.InvariantCulture));
            }
            ++seeds;
        }
        Check(seeds >= 9, "9 seed check values");
        // Stefan Gustavson's simplex noise through the recipe noise=simplex: the first rows of
        // simplex_gustavson_{2,3,4}d.txt bit for bit (from the bits after the tab).
        using (var sx = Perlin.FromRecipe("perlin=1&noise=simplex"))
        {
            int simplexRows = 0;
            for (int dims = 2; dims <= 4; ++dims)
            {
                int taken = 0;
                foreach (var line in File.ReadAllLines(Path.Combine(data, "simplex_gustavson_" + dims + "d.txt")))
                {
                    if (line.StartsWith("#") || taken == 60) continue;
                    var hex = line.Split('\t')[1].Split(' ');
                    var point = new double[dims];
                    for (int k = 0; k < dims; ++k) point[k] = BitConverter.Int64BitsToDouble(Convert.ToInt64(hex[k], 16));
                    double got = sx.Eval(point);
                    Check(BitConverter.DoubleToInt64Bits(got) == Convert.ToInt64(hex[dims], 16),
                          "simplex " + line + " -> " + got.ToString("R", CultureInfo.InvariantCulture));
                    ++taken;
                    ++simplexRows;
                }
            }
            Check(simplexRows == 180, "180 simplex golden rows");
        }
        // The golden recipes: each gives its value bit for bit and writes itself back unchanged.
        int cases = 0;
        foreach (var line in File.ReadAllLines(Path.Combine(data, "recipes.txt")))
        {
            if (line.StartsWith("#")) continue;
            var parts = line.Split('\t');
            // The bit patterns (column 4): Mono's double.Parse is not always correctly rounded.
            var hex = parts[3].Split(' ');
            Func<string, double> fromBits = h => BitConverter.Int64BitsToDouble(Convert.ToInt64(h, 16));
            var point = new double[hex.Length - 1];
            for (int k = 0; k < point.Length; ++k) point[k] = fromBits(hex[k]);
            double want = fromBits(hex[hex.Length - 1]);
            using (var rf = Perlin.FromRecipe(parts[0]))
            {
                double got = rf.Eval(point);
                Check(BitConverter.DoubleToInt64Bits(got) == BitConverter.DoubleToInt64Bits(want),
                      "recipe " + line + " -> " + got.ToString("R", CultureInfo.InvariantCulture));
                Check(rf.Recipe == parts[0], "recipe round trip " + rf.Recipe);
            }
            ++cases;
        }
        Check(cases >= 120, "120 golden recipes");
        // The graphs of graphs.txt (recipe, point, value, gradient, then their bit patterns):
        // each gives its value and gradient bit for bit and writes itself back (a one-field graph
        // as its field's version-1 recipe, the same bits).
        int graphs = 0;
        foreach (var line in File.ReadAllLines(Path.Combine(data, "graphs.txt")))
        {
            if (line.StartsWith("#")) continue;
            var parts = line.Split('\t');
            int dims = parts[1].Split(' ').Length;
            var hex = parts[4].Split(' ');
            Check(hex.Length == 2 * dims + 1, "graph bits " + line);
            Func<string, long> bitsOf = h => Convert.ToInt64(h, 16);
            var point = new double[dims];
            for (int k = 0; k < dims; ++k) point[k] = BitConverter.Int64BitsToDouble(bitsOf(hex[k]));
            using (var gf = Perlin.FromRecipe(parts[0]))
            {
                Check(BitConverter.DoubleToInt64Bits(gf.Eval(point)) == bitsOf(hex[dims]), "graph " + parts[0]);
                var gradient = new double[dims];
                double value = gf.Gradient(point, gradient);
                Check(BitConverter.DoubleToInt64Bits(value) == bitsOf(hex[dims]), "graph gradient's value " + parts[0]);
                for (int k = 0; k < dims; ++k)
                    Check(BitConverter.DoubleToInt64Bits(gradient[k]) == bitsOf(hex[dims + 1 + k]),
                          "graph partial " + k + " of " + parts[0]);
                string back = gf.Recipe;
                if (back != parts[0])
                {
                    Check(back.StartsWith("perlin=1&"), "graph round trip " + back);
                    using (var again = Perlin.FromRecipe(back))
                        Check(BitConverter.DoubleToInt64Bits(again.Eval(point)) == bitsOf(hex[dims]), "graph as a field " + back);
                }
            }
            ++graphs;
        }
        Check(graphs >= 30, "30 graphs");
        try { Perlin.FromRecipe("perlin=2&out=a&a=add&a.in=b,b&b=abs&b.in=a"); Check(false, "a cycle is refused"); }
        catch (PerlinException e) { Check(e.Message.Contains("b.in: a cycle: a -> b -> a"), e.Message); }
        int bad = 0;
        foreach (var line in File.ReadAllLines(Path.Combine(data, "bad_graphs.txt")))
        {
            if (line.StartsWith("#")) continue;
            var parts = line.Split('\t');
            try { Perlin.FromRecipe(parts[0]); Check(false, "refused: " + parts[0]); }
            catch (PerlinException e) { Check(e.Message.Contains(parts[1]), parts[0] + ": " + e.Message); }
            ++bad;
        }
        Check(bad >= 15, "15 bad graphs");
        try { Perlin.FromRecipe("perlin=1&octave=3"); Check(false, "a bad recipe is refused"); }
        catch (PerlinException e) { Check(e.Message.Contains("did you mean 'octaves'"), e.Message); }
        using (var p = new Perlin())
        {
            try { p.Gradient(new double[] { 1, 2, 3 }, new double[2]); Check(false, "a short gradient is refused"); }
            catch (PerlinException e) { Check(e.Message.StartsWith("gradient:"), e.Message); }
        }

        using (var p = new Perlin().Set("octaves", "3"))
        {
            var w = p.Warnings;
            Check(w.Length == 1 && w[0] == "octaves has no effect without --fractal (the fractal is none)",
                  "warnings: " + string.Join("|", w));
        }

        // A page's recipe: its field part, and a warning naming the render settings left out.
        using (var page = Perlin.FromRecipe("perlin=1&seed=42&fractal=fbm&octaves=5&size=64x48&step=0.015625"))
        using (var field = Perlin.FromRecipe("perlin=1&seed=42&fractal=fbm&octaves=5"))
        {
            var pt = new double[] { 0.3, 0.7 };
            Check(page.Eval(pt) == field.Eval(pt), "a page's recipe gives its field's bits");
            var w = page.Warnings;
            Check(w.Length == 1 && w[0].StartsWith("recipe: size, step are render settings"),
                  "page recipe warnings: " + string.Join("|", w));
        }

        // A NUL in a recipe is refused at its position, as in every front (it was cut there:
        // the default field).
        try { Perlin.FromRecipe("perlin=1\0&seed=3"); Check(false, "a NUL in a recipe is refused"); }
        catch (PerlinException e) { Check(e.Message.StartsWith("recipe: a NUL byte at position 8"), e.Message); }
        using (var r = Perlin.FromRecipe("perlin=1&seed=3&fractal=fbm&octaves=2"))
            Check(r.Recipe == "perlin=1&seed=3&fractal=fbm&octaves=2", "a recipe still reads: " + r.Recipe);

        // A null reference is an ArgumentNullException naming the parameter (Eval(null) was a
        // NullReferenceException; Set(null, ...) the library's message).
        using (var p = new Perlin())
        {
            ExpectNull(() => p.Eval(null), "p");
            ExpectNull(() => p.Set(null, "3"), "option");
            ExpectNull(() => p.Set("octaves", null), "value");
            ExpectNull(() => Perlin.FromRecipe(null), "recipe");
            ExpectNull(() => p.Gradient(null, new double[2]), "p");
            ExpectNull(() => p.FillGrid((float[])null, 2, 2, 0, 0, 1), "output");
        }

        if (failures == 0) Console.WriteLine("csharp: ok");
        return failures == 0 ? 0 : 1;
    }
}
