// The search bar's shipped files (Sources/SiftKit/Resources/sift.js, sift-core.js, sift.css, which
// `swift build` compiles into sift) are what Web/build.sh makes of their sources in Web/: written
// again into a temporary folder, they must come out byte for byte. `make js` rewrites them;
// `make js-test` installs Debian's esbuild first when it is missing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

test("the shipped sift.js, sift-core.js and sift.css are esbuild's output of Web/", () => {
  let version;
  try {
    version = execFileSync("esbuild", ["--version"], { encoding: "utf8" }).trim();
  } catch {
    assert.fail("esbuild is missing: `make js-test` installs it (apt-get install esbuild)");
  }
  const folder = mkdtempSync(tmpdir() + "/sift-web-");
  try {
    execFileSync(root + "Web/build.sh", [folder], { stdio: ["ignore", "ignore", "pipe"] });
    for (const name of ["sift.js", "sift-core.js", "sift-typos.js", "sift-excerpts.js", "sift-excerpt-view.js", "sift.css"]) {
      const shipped = readFileSync(root + "Sources/SiftKit/Resources/" + name), fresh = readFileSync(folder + "/" + name);
      assert.ok(shipped.equals(fresh), `Sources/SiftKit/Resources/${name} is not what esbuild ${version} makes of Web/: run \`make js\``);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
