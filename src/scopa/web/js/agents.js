// A session's browser and system in words ("Firefox on Android"), from the User-Agent header
// the server kept: the raw string is for machines. The order of the tests matters, as
// browsers name their ancestors too (Edge says Chrome and Safari, Chrome says Safari).

import { t } from "./i18n.js";

const BROWSERS = [
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/HeadlessChrome\/|Chromium\//, "Chromium"],
  [/Chrome\/|CriOS\//, "Chrome"],
  [/Version\/[\d.]+.*Safari\//, "Safari"],
];

const SYSTEMS = [
  [/iPhone|iPad|iPod/, "iOS"],
  [/Android/, "Android"],
  [/CrOS/, "ChromeOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/Linux|X11/, "Linux"],
];

function found(list, agent) {
  return list.find(([pattern]) => pattern.test(agent))?.[1] ?? null;
}

export function agentWords(agent) {
  const browser = found(BROWSERS, agent ?? "");
  const system = found(SYSTEMS, agent ?? "");
  if (browser && system) return t("account.agent", { browser, system });
  return browser ?? system ?? t("account.agent_unknown");
}
