#!/usr/bin/env node
// Validates Kubernetes manifests against the Kubernetes API's JSON schemas,
// as kubernetes-models (npm) ships them compiled: the types, required fields
// and enums of every object, down to each container. A document of an
// unknown apiVersion/kind fails. The schemas allow unknown fields, so a
// misspelt field name is not caught here; deploy/deploy_test.go checks the
// fields that matter by name.
//
//   node validate.js ../kubernetes/*.yaml
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');

// modelClass returns the kubernetes-models class of apiVersion and kind:
// "apps/v1" and "Deployment" -> kubernetes-models/apps/v1/Deployment.
function modelClass(apiVersion, kind) {
  const dir = path.join(path.dirname(require.resolve('kubernetes-models/package.json')), apiVersion);
  const file = path.join(dir, `${kind}.js`);
  if (!fs.existsSync(file)) return null;
  return require(file)[kind];
}

let failures = 0;
let count = 0;
for (const file of process.argv.slice(2)) {
  const docs = YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'));
  for (const doc of docs) {
    if (doc.errors.length) {
      console.error(`${file}: YAML: ${doc.errors.map((e) => e.message).join('; ')}`);
      failures++;
      continue;
    }
    const obj = doc.toJS();
    if (!obj) continue;
    count++;
    const where = `${file}: ${obj.kind}/${obj.metadata && obj.metadata.name}`;
    const Model = modelClass(obj.apiVersion || '', obj.kind || '');
    if (!Model) {
      console.error(`${where}: no schema for apiVersion ${obj.apiVersion}, kind ${obj.kind}`);
      failures++;
      continue;
    }
    try {
      new Model(obj).validate();
    } catch (err) {
      console.error(`${where}: ${err.message}`);
      failures++;
      continue;
    }
    console.log(`${where}: valid`);
  }
}

console.log(`deploy-validate: ${count} objects, ${failures} invalid`);
process.exit(failures ? 1 : 0);
