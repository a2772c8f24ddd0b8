/** The api's entry: build the app on a context, or start the whole HTTP server. */
export { createApp } from './app';
export { startApi, type RunningApi } from './server';
export { createContext, closeContext, type AppContext } from './context';
