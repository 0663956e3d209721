// `npm start` and `npm test` run on Node.js 24. On Linux, npm ci installs it (scripts/node-runtime) and npm
// puts it first on the scripts' PATH; elsewhere the scripts run on the Node.js on PATH, and an older one
// would run the service and its tests on a runtime they are not supported on: say so and stop.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(
    `This runs on Node.js 24 or later; the npm scripts found Node.js ${process.version} (${process.execPath}). ` +
      'On Linux (x64, arm64) npm ci installs Node.js 24 into node_modules: run npm ci again. Elsewhere, install Node.js 24. ' +
      'See README, Supported Node.js versions.',
  );
  process.exit(1);
}
