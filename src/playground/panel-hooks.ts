// What the page gives a lazily mounted panel (Replay, Compare formats) and
// what a panel gives back: types only, so the panels and panels.ts (which
// loads them) share them without importing each other.

export interface PanelHooks {
  /** The format chosen in the toolbar (may be `auto`). */
  format(): string;
  files(): Record<string, string>;
  reply(): string;
}

export interface Panel {
  /** The panel was opened again. */
  opened(): void;
}
