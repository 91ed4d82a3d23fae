export const TRANSFORM_ID = 'deprecated-declarations';
