// Runs tests/offline/same_game.py under Pyodide in Node, with no network (issue 37, item 3).
//
//   node pyodide_driver.mjs < job.json > result.json
//
// job.json: {"indexURL": the runtime's folder (scripts/pyodide.py's DIR/pyodide/), "wheel":
// the pure scopa wheel, "harness": same_game.py, "jobs": [...]}. The wheel is unpacked into
// site-packages as micropip would (no micropip: nothing to fetch), the harness is written
// beside it, and play_all(jobs) is answered as JSON on stdout, with the runtime's start time.
// fetch is replaced by one that refuses, so a runtime that reached for the network fails.
import { readFileSync } from "node:fs";

const started = performance.now();
const job = JSON.parse(readFileSync(0, "utf8"));
globalThis.fetch = async (url) => {
  throw new Error(`offline: no fetch allowed (${url})`);
};
const { loadPyodide } = await import(new URL("pyodide.mjs", `file://${job.indexURL}/`).href);
// Python's own prints go to stderr: stdout carries the answer alone.
const pyodide = await loadPyodide({
  indexURL: job.indexURL,
  stdout: (line) => process.stderr.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
// A Uint8Array: Pyodide knows no Node Buffer.
pyodide.unpackArchive(new Uint8Array(readFileSync(job.wheel)), "wheel");
pyodide.FS.writeFile("/home/pyodide/same_game.py", readFileSync(job.harness, "utf8"));
const loaded = performance.now();
pyodide.globals.set("jobs_json", JSON.stringify(job.jobs));
const answer = pyodide.runPython(`
import json, sys
sys.path.insert(0, "/home/pyodide")
import same_game
json.dumps({**same_game.play_all(json.loads(jobs_json)), "python": sys.version})
`);
const result = JSON.parse(answer);
result.startup = (loaded - started) / 1000;
process.stdout.write(JSON.stringify(result));
