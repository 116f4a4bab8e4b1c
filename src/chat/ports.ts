// The ports a browser refuses to fetch from, whatever the page and the
// server allow: the Fetch Standard's "bad port" list
// (https://fetch.spec.whatwg.org/#port-blocking, as of whatwg/fetch commit
// 586cd2a, July 2026), which Chromium, Firefox and Safari follow. A request
// to one fails at once with a bare network error (Chromium: ERR_UNSAFE_PORT),
// as if no server were there; the panel checks the port first to say why.
// Pure data and a lookup: no DOM.

/** Bad port → the service it is reserved for (as the standard's table names it; '' where it names none). */
export const BAD_PORTS: ReadonlyMap<number, string> = new Map([
  [0, ''], [1, 'tcpmux'], [7, 'echo'], [9, 'discard'], [11, 'systat'], [13, 'daytime'], [15, 'netstat'], [17, 'qotd'],
  [19, 'chargen'], [20, 'ftp-data'], [21, 'ftp'], [22, 'ssh'], [23, 'telnet'], [25, 'smtp'], [37, 'time'], [42, 'name'],
  [43, 'nicname'], [53, 'domain'], [69, 'tftp'], [77, ''], [79, 'finger'], [87, ''], [95, 'supdup'], [101, 'hostname'],
  [102, 'iso-tsap'], [103, 'gppitnp'], [104, 'acr-nema'], [109, 'pop2'], [110, 'pop3'], [111, 'sunrpc'], [113, 'auth'],
  [115, 'sftp'], [117, 'uucp-path'], [119, 'nntp'], [123, 'ntp'], [135, 'epmap'], [137, 'netbios-ns'], [139, 'netbios-ssn'],
  [143, 'imap'], [161, 'snmp'], [179, 'bgp'], [389, 'ldap'], [427, 'svrloc'], [465, 'submissions'], [512, 'exec'],
  [513, 'login'], [514, 'shell'], [515, 'printer'], [526, 'tempo'], [530, 'courier'], [531, 'chat'], [532, 'netnews'],
  [540, 'uucp'], [548, 'afp'], [554, 'rtsp'], [556, 'remotefs'], [563, 'nntps'], [587, 'submission'], [601, 'syslog-conn'],
  [636, 'ldaps'], [989, 'ftps-data'], [990, 'ftps'], [993, 'imaps'], [995, 'pop3s'], [1719, 'h323gatestat'],
  [1720, 'h323hostcall'], [1723, 'pptp'], [2049, 'nfs'], [3659, 'apple-sasl'], [4045, 'npp'], [4190, 'sieve'], [5060, 'sip'],
  [5061, 'sips'], [6000, 'x11'], [6566, 'sane-port'], [6665, 'ircu'], [6666, 'ircu'], [6667, 'ircu'], [6668, 'ircu'],
  [6669, 'ircu'], [6679, 'osaut'], [6697, 'ircs-u'], [10080, 'amanda'],
]);

export interface BadPort {
  port: number;
  /** The service the port is reserved for; '' when the standard names none. */
  service: string;
}

/**
 * The bad port an http(s) URL names, or null. A URL without a port (or with
 * its scheme's default, which the URL parser drops) connects to 80 or 443,
 * neither of them bad; other schemes are not fetched by port.
 */
export function badPort(url: URL): BadPort | null {
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.port === '') return null;
  const port = Number(url.port);
  const service = BAD_PORTS.get(port);
  return service === undefined ? null : { port, service };
}

/** What to say about a bad port; `who` refuses it (the page: the browser; the CLI: Node's fetch, which refuses the same ports). */
export function badPortMessage({ port, service }: BadPort, who = 'The browser'): string {
  const what = service ? `a port reserved for other protocols: ${service}` : 'a port reserved for other protocols';
  return `${who} refuses to connect to port ${port} (${what}); use another port.`;
}
