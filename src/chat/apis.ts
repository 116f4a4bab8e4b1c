// The hosted chat APIs the playground knows by name, and what makes a host a
// server on this machine. A hosted API needs a key and a model name; a local
// server (llama.cpp, LM Studio) answers with the model it has loaded and
// checks no key, except Ollama, which needs the model named. Pure data.

export interface HostedApi {
  /** How the panel names it: "Enter an API key for OpenAI". */
  name: string;
  /** scheme://host, as the page's CSP lists it. */
  origin: string;
  /** A model name it serves, shown as an example. */
  model: string;
}

export const HOSTED_APIS: readonly HostedApi[] = [
  { name: 'OpenAI', origin: 'https://api.openai.com', model: 'gpt-4.1-mini' },
  { name: 'Anthropic', origin: 'https://api.anthropic.com', model: 'claude-sonnet-4-5' },
  { name: 'OpenRouter', origin: 'https://openrouter.ai', model: 'openai/gpt-4.1-mini' },
  { name: 'Gemini', origin: 'https://generativelanguage.googleapis.com', model: 'gemini-2.5-flash' },
  { name: 'Mistral', origin: 'https://api.mistral.ai', model: 'mistral-small-latest' },
  { name: 'DeepSeek', origin: 'https://api.deepseek.com', model: 'deepseek-chat' },
  { name: 'Groq', origin: 'https://api.groq.com', model: 'llama-3.3-70b-versatile' },
  { name: 'Together AI', origin: 'https://api.together.xyz', model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo' },
  { name: 'Fireworks AI', origin: 'https://api.fireworks.ai', model: 'accounts/fireworks/models/llama-v3p3-70b-instruct' },
  { name: 'xAI', origin: 'https://api.x.ai', model: 'grok-3-mini' },
];

/** The hosted API at a URL's origin, if it is one of HOSTED_APIS. */
export function hostedApi(url: URL): HostedApi | null {
  return HOSTED_APIS.find((api) => api.origin === url.origin) ?? null;
}

/** A server on this machine: localhost, 127.0.0.0/8, or [::1]. */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '[::1]';
}

/** Ollama's default port: its OpenAI-compatible API needs the model named. */
export const OLLAMA_PORT = '11434';
