// The engine worker: runs the engine off the page's main thread (see engine.ts).

import { expose } from 'comlink';
import { engineApi } from './engine.ts';

expose(engineApi());
