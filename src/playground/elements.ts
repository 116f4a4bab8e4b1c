// The playground's elements, looked up once by id (the markup is in
// src/components/playground/*.astro). A missing one is a build mistake.

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`playground: #${id} is missing`);
  return el as T;
};

export function findElements() {
  return {
    root: $('pg'),
    alert: $('pg-alert'),
    status: $('pg-status'),
    engine: $('pg-engine'),
    format: $<HTMLSelectElement>('pg-format'),
    detected: $('pg-detected'),
    examples: $<HTMLSelectElement>('pg-examples'),
    loadExample: $<HTMLButtonElement>('pg-load-example'),
    copyLink: $<HTMLButtonElement>('pg-copy-link'),
    copyIssue: $<HTMLButtonElement>('pg-copy-issue'),
    downloadSession: $<HTMLButtonElement>('pg-download-session'),
    openSession: $<HTMLButtonElement>('pg-open-session'),
    sessionInput: $<HTMLInputElement>('pg-session-input'),
    newSession: $<HTMLButtonElement>('pg-new'),
    reset: $<HTMLButtonElement>('pg-reset'),
    linkWarning: $('pg-link-warning'),
    promptBox: $<HTMLDetailsElement>('pg-prompt-box'),
    prompt: $('pg-prompt'),
    promptCopy: $<HTMLButtonElement>('pg-prompt-copy'),
    live: $<HTMLDetailsElement>('pg-live'),
    optWhitespace: $<HTMLInputElement>('pg-opt-whitespace'),
    optFuzzy: $<HTMLInputElement>('pg-opt-fuzzy'),
    optThreshold: $<HTMLInputElement>('pg-opt-threshold'),
    optWindow: $<HTMLInputElement>('pg-opt-window'),
    tablist: $('pg-tablist'),
    addFile: $<HTMLButtonElement>('pg-add-file'),
    openFiles: $<HTMLButtonElement>('pg-open-files'),
    openFolder: $<HTMLButtonElement>('pg-open-folder'),
    fileInput: $<HTMLInputElement>('pg-file-input'),
    folderInput: $<HTMLInputElement>('pg-folder-input'),
    fileName: $<HTMLInputElement>('pg-filename'),
    fileBadge: $('pg-file-badge'),
    removeFile: $<HTMLButtonElement>('pg-remove-file'),
    panels: $('pg-source-panels'),
    noFiles: $('pg-no-files'),
    viewBox: $<HTMLDetailsElement>('pg-view-box'),
    viewCaption: $('pg-view-caption'),
    viewCopy: $<HTMLButtonElement>('pg-view-copy'),
    view: $('pg-view'),
    replyHost: $('pg-reply-editor'),
    diagnostics: $('pg-diagnostics'),
    summary: $('pg-summary'),
    edits: $('pg-edits'),
    replyDiags: $('pg-reply-diags'),
    shrink: $('pg-shrink'),
    resultFile: $<HTMLSelectElement>('pg-result-file'),
    resultCaption: $('pg-result-caption'),
    resultActions: $('pg-result-actions'),
    merge: $('pg-merge'),
  };
}

export type Elements = ReturnType<typeof findElements>;
