// Copy buttons of the prompts pages: each copies the text of the <pre> in
// its figure. Buttons are shown only where a clipboard is available; the
// result is announced in the page's status region.

function setUpCopyButtons(): void {
  const region = document.querySelector<HTMLElement>('[data-copy-status]');
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
    if (!navigator.clipboard?.writeText) continue;
    button.hidden = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    button.addEventListener('click', async () => {
      const pre = button.closest('figure')?.querySelector('pre');
      if (!pre) return;
      const what = button.dataset.copy ?? 'the text';
      let done: boolean;
      try {
        await navigator.clipboard.writeText(pre.textContent ?? '');
        done = true;
      } catch {
        done = false;
      }
      button.textContent = done ? 'Copied' : 'Copy failed';
      if (region) region.textContent = done ? `Copied ${what}.` : `Could not copy ${what}; select the text instead.`;
      clearTimeout(timer);
      timer = setTimeout(() => {
        button.textContent = 'Copy';
      }, 2000);
    });
  }
}

setUpCopyButtons();

export {};
