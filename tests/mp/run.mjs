// SPDX-License-Identifier: MIT
// Run a Python script under real MicroPython (WebAssembly) with FreeCell MC's pure device modules.
//
//   node tests/mp/run.mjs [--input FILE.json] [--heap BYTES] [--with PATH.py ...] SCRIPT.py
//
// The pure modules of freecell_mc/ (the ones that need no displayio) and the helper modules
// of tests/mp/ (mpcheck.py) are copied into the virtual filesystem under /lib, the input JSON
// (if any) is placed at /input.json and named in sys.argv[1], then SCRIPT.py runs as
// __main__. A Python exception prints its traceback on stderr and exits 1; SystemExit(n)
// exits n. MicroPython's own CLI exits 0 on an exception, which is why this runner exists.
//
// An endless loop cannot be interrupted from JavaScript (runPython is synchronous): callers
// wrap this runner in `timeout`.

import { readFileSync, existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve, basename, relative, isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "..", "..");

// The device modules that import no displayio/board: only these can run here (paths under
// freecell_mc/, without .py; a package's __init__ comes with its modules).
const PURE = [
  "__init__", "compat", "dates", "play",
  "rules/__init__", "rules/cards", "rules/deals", "rules/engine", "rules/notation",
  "saves/__init__", "saves/record", "saves/settings", "saves/savelog", "saves/notices",
  "saves/policy", "saves/loading",
  "saves/stats",
  "hardware/__init__", "hardware/backlight", "hardware/clock", "hardware/rtcchip",
  "hardware/carry", "hardware/taps",
  "ui/__init__", "ui/layout",
];

function usage(msg) {
  process.stderr.write(`run.mjs: ${msg}\n` +
    "usage: node tests/mp/run.mjs [--input FILE.json] [--heap BYTES] [--with PATH.py] SCRIPT.py\n");
  process.exit(2);
}

let input = null;
// Near the PyPortal's free heap; this build grows it on demand, and gc.mem_alloc() walks the
// whole heap, so a small one keeps allocation measurements fast.
let heap = 256 * 1024;
const extra = [];
let script = null;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--input") input = argv[++i];
  else if (a === "--heap") heap = parseInt(argv[++i], 10);
  else if (a === "--with") extra.push(argv[++i]);
  else if (a.startsWith("--")) usage(`unknown option ${a}`);
  else if (script === null) script = a;
  else usage(`unexpected argument ${a}`);
}
if (script === null) usage("no script given");
if (!existsSync(script)) usage(`no such script: ${script}`);
if (!Number.isFinite(heap) || heap < 65536) usage("--heap must be a number >= 65536");

const mp = await loadMicroPython({
  heapsize: heap,
  linebuffer: false,
  stdout: (data) => process.stdout.write(data),
  stderr: (data) => process.stderr.write(data),
});

mp.FS.mkdirTree("/lib/freecell_mc");
const pkg = join(ROOT, "freecell_mc");
const copied = [];
for (const name of PURE) {
  const path = join(pkg, name + ".py");
  if (existsSync(path)) {
    mp.FS.mkdirTree(dirname(`/lib/freecell_mc/${name}`));
    mp.FS.writeFile(`/lib/freecell_mc/${name}.py`, readFileSync(path, "utf8"));
    copied.push(name);
  }
}
for (const path of extra) {
  // Extra modules keep their place relative to the repository (freecell_mc/ui/screens/x.py).
  const rel = relative(ROOT, resolve(path));
  if (!existsSync(path) || rel.startsWith("..") || isAbsolute(rel)) {
    usage(`--with needs a file inside the repo: ${path}`);
  }
  const dest = "/lib/" + rel;
  mp.FS.mkdirTree(dirname(dest));
  const init = join(dirname(dest), "__init__.py");
  if (!mp.FS.analyzePath(init).exists && dirname(dest) !== "/lib") mp.FS.writeFile(init, "");
  mp.FS.writeFile(dest, readFileSync(path, "utf8"));
}
for (const name of readdirSync(HERE)) {
  // Helpers shared by the scripts; scripts themselves are mp_*.py and run one at a time.
  if (name.endsWith(".py") && !name.startsWith("mp_")) {
    mp.FS.writeFile("/lib/" + name, readFileSync(join(HERE, name), "utf8"));
  }
}
if (input !== null) mp.FS.writeFile("/input.json", readFileSync(input, "utf8"));
// A script may be cut into phases by lines starting with "# mp-phase". Each phase is
// compiled in one runPython call and run in the next: this build's gc.collect() frees nothing
// inside the runPython call that made the garbage, only in a later one, so heap figures taken
// at the start of a phase do not count the compiler's or an earlier phase's garbage.
const source = readFileSync(script, "utf8");
const lines = source.split("\n");
const phases = [];
let from = 0;
for (let i = 0; i <= lines.length; i++) {
  if (i === lines.length || (i > from && lines[i].startsWith("# mp-phase"))) {
    // Blank lines before the chunk keep tracebacks' line numbers those of the script.
    phases.push("\n".repeat(from) + lines.slice(from, i).join("\n") + "\n");
    from = i;
  }
}
const name = JSON.stringify(basename(script));
const argvList = input === null ? [basename(script)] : [basename(script), "/input.json"];

let code = 0;
try {
  mp.runPython(
    "import sys\n" +
    "sys.path[:] = ['', '/lib']\n" +
    `sys.argv[:] = ${JSON.stringify(argvList)}\n` +
    "MP_PURE_MODULES = " + JSON.stringify(copied) + "\n" +
    "_g = {'__name__': '__main__', '__file__': '/main.py', 'MP_PURE_MODULES': MP_PURE_MODULES}\n"
  );
  phases.forEach((text, i) => {
    mp.FS.writeFile("/main.py", text);
    mp.runPython(`_c = compile(open('/main.py').read(), ${name}, 'exec')\n`);
    mp.runPython("exec(_c, _g)\n");
  });
} catch (e) {
  if (e && e.type === "SystemExit") {
    const m = /SystemExit: (-?\d+)/.exec(e.message || "");
    code = m ? parseInt(m[1], 10) : (/SystemExit: ./.test(e.message || "") ? 1 : 0);
    if (code !== 0 && !m) process.stderr.write(e.message);
  } else {
    process.stderr.write((e && e.message) ? e.message : String(e));
    process.stderr.write("\n");
    code = 1;
  }
}
process.exitCode = code;
