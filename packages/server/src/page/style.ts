import { raw } from "hono/html";

/**
 * The pages' stylesheet: system fonts, light and dark (prefers-color-scheme) with AA contrast,
 * no horizontal scroll of the page on a phone (tables scroll inside their own container),
 * visible focus, dead letters, flagged artifacts and warnings marked by a border, an icon and
 * words, not by colour alone.
 */
export const pageStyle = raw(`
:root{--bg:#fff;--fg:#1a1a1a;--muted:#4a4a4a;--line:#c4c4c4;--panel:#f4f4f5;--accent:#0b57d0;--danger:#a4161a;--danger-bg:#fdecea;--ok:#1b5e20;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#121212;--fg:#ececec;--muted:#b8b8b8;--line:#4a4a4a;--panel:#1e1e20;--accent:#8ab4f8;--danger:#ffb4ab;--danger-bg:#3b1111;--ok:#a5d6a7}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow-wrap:anywhere}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;line-height:1.25;margin:.5rem 0}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem;border-bottom:1px solid var(--line)}
h3{font-size:1.05rem;margin:.25rem 0}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--bg);padding:.5rem}
.meta,.muted{color:var(--muted)}
.status{font-weight:600}
.stages{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.5rem}
.stages>li{flex:1 1 12rem;border:1px solid var(--line);border-radius:.5rem;padding:.5rem .75rem;background:var(--panel)}
.stages>li[data-status=active]{border-width:2px;border-color:var(--accent)}
.counts{list-style:none;padding:0;margin:.25rem 0 0;display:flex;flex-wrap:wrap;gap:.25rem .75rem;font-size:.9rem}
.table-scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;font-size:.9rem}
caption{text-align:left;font-weight:600;padding:.25rem 0}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
th,td{border:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:var(--panel)}
tr[data-state=dead_lettered]{background:var(--danger-bg)}
tr[data-state=dead_lettered] td:first-child{border-left:4px solid var(--danger)}
.dead{color:var(--danger);font-weight:700}
.warnings{background:var(--danger-bg);border:1px solid var(--danger);border-left-width:4px;border-radius:.25rem;padding:0 .75rem}
.warnings h2{border:0}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--panel);border:1px solid var(--line);padding:.5rem;border-radius:.25rem;max-height:32rem;overflow-y:auto}
article{border:1px solid var(--line);border-radius:.5rem;padding:.75rem;margin:.75rem 0}
article>section{border-left:4px solid var(--line);padding-left:.75rem;margin-top:.75rem}
article[data-flagged],section[data-flagged]{border-left:4px solid var(--danger)}
.flagged{background:var(--danger-bg);color:var(--fg);border:1px solid var(--danger);border-radius:.25rem;padding:.5rem}
button{font:inherit;padding:.25rem .75rem;border:1px solid var(--fg);border-radius:.25rem;background:var(--bg);color:var(--fg);cursor:pointer}
form{margin:.25rem 0}
#events{font-size:.9rem;padding-left:2.5rem}
#events time{color:var(--muted)}
`);
