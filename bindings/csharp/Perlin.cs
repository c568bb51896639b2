// perlin from C#: Ken Perlin's improved noise, exact and fast, over the C API (libperlin-c.so).
// One file: add it to a project and put libperlin-c.so beside the program (Mono and .NET look
// there first), or on the library path (LD_LIBRARY_PATH, ldconfig).
//
//   using PerlinNoise;
//   using (var p = new Perlin()) { ... }               // Ken Perlin's table
//   double v = p.Noise(3.14, 42, 7);                   // 0.13691995878400012, bit for bit
//   double h = new Perlin(42).OctavePerlin(x, y, z, 6, 0.5);
//   using var f = new Perlin(42).Set("fractal", "fbm").Set("octaves", "8");   // docs/options.md
//   using var g = Perlin.FromRecipe(f.Recipe);          // the same field, bit for bit
//   f.FillGrid(pixels, 512, 512, 0, 0, 1.0 / 64);      // SIMD, every core
//
// Errors throw PerlinException with the library's message ("octaves: must be 1 to 32, got 0").
using System;
using System.Runtime.InteropServices;

namespace PerlinNoise
{
    /// <summary>A failure reported by the library; the message names the option.</summary>
    public sealed class PerlinException : Exception
    {
        public int Code { get; }
        public PerlinException(int code, string message) : base(message) { Code = code; }
    }

    /// <summary>Owns one perlin_field handle and frees it exactly once.</summary>
    internal sealed class FieldHandle : SafeHandle
    {
        public FieldHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid => handle == IntPtr.Zero;
        protected override bool ReleaseHandle()
        {
            Native.perlin_field_free(handle);
            return true;
        }
    }

    /// <summary>The C API's signatures (include/perlin/perlin.h), one to one. Every int is a C int,
    /// every size_t a UIntPtr, every string a UTF-8 char*; no bool crosses the boundary.</summary>
    internal static class Native
    {
        private const string Lib = "perlin-c";

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr perlin_version();
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr perlin_last_error();
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern FieldHandle perlin_field_new();
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern FieldHandle perlin_field_clone(FieldHandle field);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void perlin_field_free(IntPtr field);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int perlin_field_set(FieldHandle field,
            [MarshalAs(UnmanagedType.LPStr)] string option, [MarshalAs(UnmanagedType.LPStr)] string value);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern double perlin_field_eval(FieldHandle field, int dims, double[] coords);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int perlin_field_eval_deriv(FieldHandle field, int dims, double[] coords,
            out double value, [Out] double[] gradient);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int perlin_fill_grid(FieldHandle field, int dims, UIntPtr[] count,
            double[] origin, double[] step, [Out] float[] output, UIntPtr length, int threads);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int perlin_fill_grid_double(FieldHandle field, int dims, UIntPtr[] count,
            double[] origin, double[] step, [Out] double[] output, UIntPtr length, int threads);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int perlin_fill_grid_deriv(FieldHandle field, int dims, UIntPtr[] count,
            double[] origin, double[] step, [Out] float[] output, UIntPtr length, [Out] float[] gradient,
            UIntPtr gradientLength, int threads);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern FieldHandle perlin_field_from_recipe_n(byte[] text, UIntPtr length);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern UIntPtr perlin_field_recipe(FieldHandle field, byte[] buf, UIntPtr size);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern UIntPtr perlin_field_warnings(FieldHandle field, byte[] buf, UIntPtr size);

        internal static string LastError() => Marshal.PtrToStringAnsi(perlin_last_error()) ?? "";

        internal static void Check(int code)
        {
            if (code != 0) throw new PerlinException(code, LastError());
        }
    }

    /// <summary>A noise field: Ken Perlin's improved noise (or a seeded one), and any option of
    /// the perlin command line set by name.</summary>
    public sealed class Perlin : IDisposable
    {
        private readonly FieldHandle field;
        private readonly ulong? seed;
        private FieldHandle octaveField;   // the last OctavePerlin settings
        private int octaveCount = -1;
        private double octavePersistence = double.NaN;
        private readonly object octaveLock = new object();  // OctavePerlin from several threads

        /// <summary>Ken Perlin's permutation.</summary>
        public Perlin() : this((ulong?)null) { }
        /// <summary>The permutation of a 64-bit seed (docs/seeding.md): the same on every machine.</summary>
        public Perlin(ulong seed) : this((ulong?)seed) { }

        private Perlin(ulong? seed)
        {
            this.seed = seed;
            field = New();
        }

        private Perlin(FieldHandle made)
        {
            if (made.IsInvalid) throw new PerlinException(-3, Native.LastError());
            field = made;
        }

        /// <summary>The field of a recipe ("perlin=1&amp;fractal=fbm&amp;octaves=8", docs/recipes.md):
        /// the same bits as every other front.</summary>
        public static Perlin FromRecipe(string recipe)
        {
            if (recipe == null) throw new ArgumentNullException(nameof(recipe));
            // The UTF-8 bytes with their length: a NUL inside is refused at its position by the
            // library, not taken for the end (LPStr marshalling cut there).
            byte[] text = System.Text.Encoding.UTF8.GetBytes(recipe);
            return new Perlin(Native.perlin_field_from_recipe_n(text, (UIntPtr)(uint)text.Length));
        }

        /// <summary>The options set that change nothing with the others, as the CLI warns of them
        /// ("octaves has no effect without --fractal (the fractal is none)").</summary>
        public string[] Warnings
        {
            get
            {
                ulong n = (ulong)Native.perlin_field_warnings(field, null, UIntPtr.Zero);
                var buf = new byte[n + 1];
                Native.perlin_field_warnings(field, buf, (UIntPtr)(n + 1));
                return System.Text.Encoding.ASCII.GetString(buf, 0, (int)n)
                    .Split(new[] { '\n' }, StringSplitOptions.RemoveEmptyEntries);
            }
        }

        /// <summary>The field's recipe: one line that names it completely.</summary>
        public string Recipe
        {
            get
            {
                ulong n = (ulong)Native.perlin_field_recipe(field, null, UIntPtr.Zero);
                var buf = new byte[n + 1];
                Native.perlin_field_recipe(field, buf, (UIntPtr)(n + 1));
                return System.Text.Encoding.ASCII.GetString(buf, 0, (int)n);
            }
        }

        private FieldHandle New()
        {
            FieldHandle h = Native.perlin_field_new();
            if (h.IsInvalid) throw new PerlinException(-5, Native.LastError());
            if (seed.HasValue) Native.Check(Native.perlin_field_set(h, "seed", seed.Value.ToString()));
            return h;
        }

        /// <summary>The library's version.</summary>
        public static string Version => Marshal.PtrToStringAnsi(Native.perlin_version()) ?? "";

        /// <summary>Sets an option by its command-line name and syntax ("octaves", "6"); returns this.</summary>
        public Perlin Set(string option, string value)
        {
            if (option == null) throw new ArgumentNullException(nameof(option));
            if (value == null) throw new ArgumentNullException(nameof(value));
            Native.Check(Native.perlin_field_set(field, option, value));
            return this;
        }

        /// <summary>The field at a point of 1 to 4 coordinates (the exact double path).</summary>
        public double Eval(params double[] p)
        {
            if (p == null) throw new ArgumentNullException(nameof(p));
            double v = Native.perlin_field_eval(field, p.Length, p);
            if (double.IsNaN(v) && Native.LastError().Length > 0 && (p.Length < 1 || p.Length > 4))
                throw new PerlinException(-4, Native.LastError());
            return v;
        }

        /// <summary>Ken Perlin's improved noise at (x, y, z), in about [-1, 1]: the reference value bit
        /// for bit (with the options set, the configured field).</summary>
        public double Noise(double x, double y, double z) => Eval(x, y, z);
        public double Noise(double x, double y) => Eval(x, y);
        public double Noise(double x) => Eval(x);
        public double Noise(double x, double y, double z, double w) => Eval(x, y, z, w);

        /// <summary>The value and the analytic gradient.</summary>
        public double Gradient(double[] p, double[] gradient)
        {
            if (p == null) throw new ArgumentNullException(nameof(p));
            if (gradient == null) throw new ArgumentNullException(nameof(gradient));
            if (gradient.Length < p.Length)
                throw new PerlinException(-4, "gradient: must hold one value per coordinate (" + p.Length + ")");
            Native.Check(Native.perlin_field_eval_deriv(field, p.Length, p, out double v, gradient));
            return v;
        }

        /// <summary>sum over i &lt; octaves of persistence^i * noise(2^i x, 2^i y, 2^i z): Ken Perlin's
        /// octave loop (the usual OctavePerlin), bit for bit, not normalised.</summary>
        public double OctavePerlin(double x, double y, double z, int octaves, double persistence)
        {
            lock (octaveLock)
            {
                return OctavePerlinLocked(x, y, z, octaves, persistence);
            }
        }

        private double OctavePerlinLocked(double x, double y, double z, int octaves, double persistence)
        {
            if (octaveField == null || octaves != octaveCount || !persistence.Equals(octavePersistence))
            {
                FieldHandle h = New();
                Native.Check(Native.perlin_field_set(h, "fractal", "fbm"));
                Native.Check(Native.perlin_field_set(h, "octaves", octaves.ToString()));
                Native.Check(Native.perlin_field_set(h, "persistence", persistence.ToString("R", System.Globalization.CultureInfo.InvariantCulture)));
                octaveField?.Dispose();
                octaveField = h;
                octaveCount = octaves;
                octavePersistence = persistence;
            }
            return Native.perlin_field_eval(octaveField, 3, new[] { x, y, z });
        }

        /// <summary>Fills output[j * width + i] with the field at (x0 + i*step, y0 + j*step): the SIMD
        /// path on every core (threads = 0), within 2e-6 times the sum of the octave amplitudes of
        /// Eval.</summary>
        public void FillGrid(float[] output, int width, int height, double x0, double y0, double step, int threads = 0)
        {
            if (output == null) throw new ArgumentNullException(nameof(output));
            var count = new[] { Size(width), Size(height) };
            Native.Check(Native.perlin_fill_grid(field, 2, count, new[] { x0, y0 }, new[] { step, step },
                output, (UIntPtr)(uint)output.Length, threads));
        }

        /// <summary>The same on the exact double path.</summary>
        public void FillGrid(double[] output, int width, int height, double x0, double y0, double step, int threads = 0)
        {
            if (output == null) throw new ArgumentNullException(nameof(output));
            var count = new[] { Size(width), Size(height) };
            Native.Check(Native.perlin_fill_grid_double(field, 2, count, new[] { x0, y0 }, new[] { step, step },
                output, (UIntPtr)(uint)output.Length, threads));
        }

        /// <summary>A volume: output[(k * height + j) * width + i] is the field at
        /// (x0 + i*step, y0 + j*step, z0 + k*step), on the SIMD path like the 2-D FillGrid.</summary>
        public void FillGrid(float[] output, int width, int height, int depth, double x0, double y0, double z0,
                             double step, int threads = 0)
        {
            if (output == null) throw new ArgumentNullException(nameof(output));
            var count = new[] { Size(width), Size(height), Size(depth) };
            Native.Check(Native.perlin_fill_grid(field, 3, count, new[] { x0, y0, z0 }, new[] { step, step, step },
                output, (UIntPtr)(uint)output.Length, threads));
        }

        /// <summary>Values and analytic gradients of a 2-D grid: gradient holds 2 * width * height
        /// floats, d/dx of every sample first, then d/dy (planar), within the C++ fill_grid_deriv's
        /// tolerance of Gradient.</summary>
        public void FillGridGradient(float[] output, float[] gradient, int width, int height, double x0,
                                     double y0, double step, int threads = 0)
        {
            if (output == null) throw new ArgumentNullException(nameof(output));
            if (gradient == null) throw new ArgumentNullException(nameof(gradient));
            var count = new[] { Size(width), Size(height) };
            Native.Check(Native.perlin_fill_grid_deriv(field, 2, count, new[] { x0, y0 }, new[] { step, step },
                output, (UIntPtr)(uint)output.Length, gradient, (UIntPtr)(uint)gradient.Length, threads));
        }

        /// <summary>A count for the C API: negative sizes are refused here (a cast would wrap).</summary>
        private static UIntPtr Size(int n)
        {
            if (n < 0) throw new PerlinException(-4, "count: must not be negative, got " + n);
            return (UIntPtr)(uint)n;
        }

        public void Dispose()
        {
            field.Dispose();
            lock (octaveLock) octaveField?.Dispose();
        }
    }
}
