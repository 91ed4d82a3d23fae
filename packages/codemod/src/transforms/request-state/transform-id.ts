export const TRANSFORM_ID = 'request-state';
