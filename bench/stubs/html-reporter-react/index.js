// See package.json: the benchmarks run @open-rpc/test-coverage with a silent reporter, never its HTML one.
throw new Error('@open-rpc/html-reporter-react is a stub in the contract-gate repository: test-coverage\'s HTML reporter is not installed');
