/// The report page's style sheet: system fonts only, light and dark from the reader's setting,
/// focus always visible.
enum SizeReportPageStyle {
    static let css = """
    :root{color-scheme:light dark;--bg:#fff;--fg:#1d1d1f;--muted:#5f6368;--line:#d9d9de;--head:#f3f3f6;
    --install:#2f6fd0;--prefetch:#c9730a;--ondemand:#2e8b57;--grew:#b3261e;--shrank:#1e7b34;--alert:#fdecea;--focus:#0a58ca}
    @media (prefers-color-scheme:dark){:root{--bg:#16171a;--fg:#ececf1;--muted:#a8abb3;--line:#3a3c42;--head:#23252a;
    --install:#6ea1f5;--prefetch:#f0a54a;--ondemand:#5cc48a;--grew:#ff8a80;--shrank:#7fd99a;--alert:#3d1d1b;--focus:#8ab4f8}}
    *{box-sizing:border-box}
    body{margin:0;padding:0 1.25rem 3rem;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
    main,header{max-width:72rem;margin:0 auto}
    h1{font-size:1.5rem;margin:1.25rem 0 .25rem}h2{font-size:1.2rem;margin:2rem 0 .5rem}h3{font-size:1rem;margin:1.25rem 0 .4rem}
    header p,.muted{color:var(--muted)}
    .skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;background:var(--bg);padding:.25rem .5rem}
    :focus-visible{outline:3px solid var(--focus);outline-offset:2px}
    table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
    caption{text-align:left;color:var(--muted);padding:.25rem 0}
    th,td{padding:.3rem .5rem;border-bottom:1px solid var(--line);text-align:right;vertical-align:middle}
    th:first-child,td:first-child,td.name,th.name{text-align:left}
    thead th{background:var(--head);font-weight:600}
    code{font-size:.9em}td code{overflow-wrap:anywhere}
    .alert{background:var(--alert);border-left:4px solid var(--grew);padding:.25rem 1rem;margin-top:1rem}
    .grew{color:var(--grew)}.shrank{color:var(--shrank)}
    .bar{display:flex;height:1.6rem;border-radius:4px;overflow:hidden;border:1px solid var(--line);margin:.5rem 0}
    .bar span{display:block;height:100%;min-width:2px;border-right:1px solid var(--bg)}
    .initial-install{background:var(--install)}.prefetch{background:var(--prefetch)}.on-demand{background:var(--ondemand)}
    .asset{background:var(--install)}.rest{background:var(--line)}.bar span.odd{filter:brightness(.82)}
    .legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;padding:0;margin:.25rem 0}
    .legend i{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;margin-right:.3rem;vertical-align:-1px}
    .share{display:inline-block;height:.55rem;background:var(--install);border-radius:2px;vertical-align:middle}
    td.share-cell{width:18%;text-align:left}
    .thumb{width:32px;height:32px;object-fit:contain;vertical-align:middle;border-radius:3px;
    background:repeating-conic-gradient(#8883 0% 25%,transparent 0% 50%) 50%/10px 10px}
    .nopic{display:inline-block;width:32px;height:32px;vertical-align:middle;border:1px dashed var(--line);border-radius:3px}
    nav.pager{display:flex;align-items:center;gap:.75rem;margin:.5rem 0}
    button,select,input{font:inherit;color:inherit;background:var(--head);border:1px solid var(--line);border-radius:4px;padding:.2rem .6rem}
    button:disabled{opacity:.45}
    .controls{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;margin:.5rem 0}
    """
}
