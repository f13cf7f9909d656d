import { declareFamily } from '../../fixtures/index.js';

// The remote lane from a real browser: a static page opens the WebSocket from Chromium and sends the desktop's create.
declareFamily('browser');
