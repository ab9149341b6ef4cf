// SPDX-License-Identifier: MIT
// Run code.py under real MicroPython (WebAssembly) at the board's heap and pystack limits.
//
//   node tests/mp/board.mjs --tree DIR --heap BYTES --pystack BYTES
//
// DIR is a CIRCUITPY-like tree made by bench/board.py: code.py, lib/ (the game and the real
// Adafruit libraries, as .py or .mpy), the stand-ins of tests/mp/board/ and session.json.
// It is copied into the virtual filesystem; then, each in its own top-level call, as the
// board does: the stand-ins are set up, code.py runs as __main__ (its frame is the first on
// the pystack, as on the board) until the first poll of the game ends with session.Pause,
// then one call per poll (session.resume(), see tests/mp/board/session.py for why) until
// session.SessionEnd; the figures are printed as RESULT lines.
//
// The heap: this MicroPython build never collects inside a top-level call and grows its heap
// instead of raising MemoryError, so --heap is where it starts, not a cap; the session
// reports the heap in use per poll (tests/mp/board/session.py). The pystack is a hard
// limit: `RuntimeError: pystack exhausted`, as on the board.
//
// Exit 0 when the session ran to its end, 1 on any Python error (traceback on stderr).

import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

let tree = null;
let heap = 120000;
let pystack = 1536;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--tree") tree = argv[++i];
  else if (a === "--heap") heap = parseInt(argv[++i], 10);
  else if (a === "--pystack") pystack = parseInt(argv[++i], 10);
  else {
    process.stderr.write(`board.mjs: unknown argument ${a}\n` +
      "usage: node tests/mp/board.mjs --tree DIR --heap BYTES --pystack BYTES\n");
    process.exit(2);
  }
}
if (tree === null || !Number.isFinite(heap) || !Number.isFinite(pystack) || pystack % 4) {
  process.stderr.write("board.mjs: --tree DIR, --heap BYTES and --pystack BYTES (a multiple of 4)\n");
  process.exit(2);
}

const mp = await loadMicroPython({
  heapsize: heap,
  pystack: pystack / 4, // in words of 4 bytes
  linebuffer: false,
  stdout: (data) => process.stdout.write(data),
  stderr: (data) => process.stderr.write(data),
});

function copy(dir, dest) {
  for (const name of readdirSync(dir)) {
    const src = join(dir, name);
    const to = dest + "/" + name;
    if (statSync(src).isDirectory()) {
      mp.FS.mkdirTree(to);
      copy(src, to);
    } else {
      mp.FS.writeFile(to, readFileSync(src));
    }
  }
}
copy(tree, "");

function fail(e) {
  process.stderr.write((e && e.message) ? e.message : String(e));
  process.stderr.write("\n");
  process.exitCode = 1;
}

let ended = false;
try {
  mp.runPython(
    "import sys\n" +
    "sys.path[:] = ['/', '/lib']\n" +
    "import session\n" +
    "session.start('/session.json')\n" +
    "import board_time\n" +
    "sys.modules['time'] = board_time\n" +
    // The stand-ins are C modules on the board, their code in flash: imported now, their
    // code is part of the 'start' figure, not of the game's.
    "import displayio, vectorio, fontio, terminalio, bitmaptools, board, analogio, digitalio\n" +
    "import microcontroller, rtc, supervisor\n"
  );
  // A collection in a later call frees the set-up's garbage (this build frees nothing
  // inside the top-level call that made it).
  mp.runPython("import gc\ngc.collect()\nsession.visits.append(['start', gc.mem_alloc(), 0])\n");
  // code.py: app.main builds the App and runs its loop until the first poll pauses.
  let next = readFileSync(join(tree, "code.py"), "utf8");
  let startup = -1;
  while (!ended) {
    let returned = false;
    const t0 = performance.now();
    try {
      mp.runPython(next);
      returned = true;
    } catch (e) {
      if (e && e.type === "SessionEnd") ended = true;
      else if (!(e && e.type === "Pause")) throw e;
    }
    // Imports, saves, the App and its table, the first poll: the start a player waits for.
    if (startup < 0) startup = Math.round(performance.now() - t0);
    if (returned) throw new Error("the game returned before the session ended");
    next = "session.resume()\n";
  }
  mp.runPython("session.report()\n");
  console.log("RESULT " + JSON.stringify(["startup_ms", startup]));
} catch (e) {
  fail(e);
}
