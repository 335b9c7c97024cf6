/**
 * The root README's "Your first project, from the command line", step by step, against a fresh
 * server: what a new user enters with the CLI shows in the public changelog, roadmap, site
 * configuration, translations and version check. Keep the two in step.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer } from "@signpost/server/testing";
import { cliEntry } from "./support.ts";

describe("README: your first project, from the command line", { timeout: 120_000 }, () => {
  let server: TestServer;
  let dir: string;

  const npxSignpost = (args: string[], stdin = ""): Promise<string> => {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (!name.startsWith("SIGNPOST_") && value !== undefined) env[name] = value;
    Object.assign(env, { SIGNPOST_CONFIG_DIR: join(dir, "config"), SIGNPOST_URL: server.origin });
    return new Promise((resolve, reject) => {
      const child = execFile(process.execPath, [cliEntry, ...args], { env, cwd: dir, timeout: 30_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`signpost ${args.join(" ")} failed (${String(error.code)}):\n${stdout}\n${stderr}`));
        else resolve(stdout);
      });
      child.stdin?.end(stdin);
    });
  };
  const get = async (path: string, key?: string) => {
    const response = await fetch(`${server.baseUrl}${path}`, { headers: key ? { "x-api-key": key } : {} });
    assert.equal(response.status, 200, path);
    return (await response.json()) as any;
  };

  before(async () => {
    server = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), "signpost-readme-"));
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("goes from sign-up to a project whose public reads show what was entered", async () => {
    await npxSignpost(["signup", "--email", "you@example.com"], "a long password\n");
    await npxSignpost(["projects", "create", "My App", "--locales", "en,de", "--use"]);
    const whoami = await npxSignpost(["whoami"]);
    const project = /Project:\s+(\S+)/.exec(whoami)![1]!;
    const key = (await npxSignpost(["keys", "create", "--env", "live", "--scopes", "public:read,features:read,features:write"])).trim();

    await npxSignpost(["changelog", "create", "--summary", "Dark mode is here", "--status", "new", "--publish"]);
    await npxSignpost(["releases", "create", "1.0.0", "--title", "First release", "--download-url", "https://example.com/app-1.0.0.zip"]);
    await npxSignpost(["site", "messages", "add", "--type", "info", "--text", "Welcome to My App"]);
    await npxSignpost(["site", "flags", "set", "new-dashboard", "on"]);
    writeFileSync(join(dir, "de.json"), '{"greeting": "Hallo", "nav": {"home": "Startseite"}}\n');
    await npxSignpost(["translations", "import", "de.json"]);
    const submitted = await fetch(`${server.baseUrl}/features`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ title: "Offline mode", description: "Keep working without a network" }),
    });
    assert.equal(submitted.status, 201);
    const listed = await npxSignpost(["features", "list"]);
    const featureId = /(feat_\S+)/.exec(listed)![1]!;
    await npxSignpost(["features", "update", featureId, "--status", "planned"]);

    const changelog = await get("/changelog", key);
    assert.deepEqual(changelog.entries.map((e: any) => [e.summary, e.statusLabel]), [["Dark mode is here", "New"]]);
    const roadmap = await get("/roadmap", key);
    assert.deepEqual(roadmap.columns.find((c: any) => c.status === "planned").items.map((i: any) => i.title), ["Offline mode"]);
    const translations = await get("/translations?locale=de", key);
    assert.deepEqual(translations.translations, { greeting: "Hallo", "nav.home": "Startseite" });
    const siteConfig = await get(`/site-config?projectId=${project}`);
    assert.deepEqual(siteConfig.messages.map((m: any) => m.text), ["Welcome to My App"]);
    assert.deepEqual(siteConfig.featureFlags.map((f: any) => [f.key, f.enabled]), [["new-dashboard", true]]);
    const version = await get(`/version-check?projectId=${project}&currentVersion=0.9.0`);
    assert.equal(version.updateAvailable, true);
    assert.equal(version.latestVersion.version, "1.0.0");
    assert.equal(version.latestVersion.downloadUrl, "https://example.com/app-1.0.0.zip");
  });
});
