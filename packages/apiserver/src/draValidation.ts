import type { FieldError, KubeObject } from '@kubekit/core';

export const validateDeviceClass = (_o: KubeObject): FieldError[] => [];
export const validateDeviceClassUpdate = (_o: KubeObject, _old: KubeObject): FieldError[] => [];
export const validateResourceClaim = (_o: KubeObject): FieldError[] => [];
export const validateResourceClaimUpdate = (_o: KubeObject, _old: KubeObject): FieldError[] => [];
export const validateResourceClaimStatusUpdate = (_o: KubeObject, _old: KubeObject): FieldError[] => [];
export const validateResourceClaimTemplate = (_o: KubeObject): FieldError[] => [];
export const validateResourceClaimTemplateUpdate = (_o: KubeObject, _old: KubeObject): FieldError[] => [];
export const validateResourceSlice = (_o: KubeObject): FieldError[] => [];
export const validateResourceSliceUpdate = (_o: KubeObject, _old: KubeObject): FieldError[] => [];
