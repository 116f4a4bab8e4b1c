// Make sure Debian's Chromium is there for the end-to-end tests (never a
// downloaded browser): install it with apt-get when it is missing.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);
const has = (cmd) => {
  try {
    execSync(`command -v ${cmd}`, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
if (process.platform === 'linux' && has('apt-get')) {
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  console.log('Installing Debian chromium for the end-to-end tests…');
  execSync(
    `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core`,
    { stdio: 'inherit' },
  );
  if (existsSync('/usr/bin/chromium')) process.exit(0);
}
console.error(`No Chromium at ${path}; install one (Debian: apt-get install chromium) or set CHROMIUM_PATH.`);
process.exit(1);
