// The one inline script of every page: the light/dark choice, applied before
// the first paint (so a dark choice never flashes light), and the header's
// theme button. Inline because a script file in <head> would hold the first
// paint for a request; the page's Content-Security-Policy allows exactly this
// text by its hash (Base.astro). Without JavaScript the button is hidden
// (site.css) and the system setting decides.
//
// <html data-theme> is `system`, `light` or `dark`; the choice is kept in
// localStorage under THEME_KEY (absent = system). The button cycles
// system → light → dark.

export const THEME_KEY = 'ln-diff-theme';

export const THEME_SCRIPT = `(()=>{const d=document.documentElement,k=${JSON.stringify(THEME_KEY)},m=["system","light","dark"];let t=null;try{t=localStorage.getItem(k)}catch{}d.dataset.theme=m.includes(t)?t:"system";const s=()=>{for(const b of document.querySelectorAll(".theme-toggle"))b.textContent="Theme: "+d.dataset.theme};document.addEventListener("DOMContentLoaded",s);document.addEventListener("click",e=>{if(!(e.target instanceof Element)||!e.target.closest(".theme-toggle"))return;const n=m[(m.indexOf(d.dataset.theme)+1)%3];d.dataset.theme=n;try{n==="system"?localStorage.removeItem(k):localStorage.setItem(k,n)}catch{}s()})})()`;
