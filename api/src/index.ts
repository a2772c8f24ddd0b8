export { loadConfig, type Config } from './config';
export { createApp } from './app';
export { startApi, type RunningApi } from './server';
export { createContext, closeContext, createLogger, createRedis, type AppContext } from './context';
export { hashPassword } from './auth/passwords';
