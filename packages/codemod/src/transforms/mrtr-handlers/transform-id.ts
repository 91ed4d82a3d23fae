export const TRANSFORM_ID = 'mrtr-handlers';
