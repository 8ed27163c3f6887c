export * from './face';
export * from './pose';
export * from './guidance';
export * from './challenges';
export * from './attempts';
